/// An HLS playlist (RFC 8216), parsed from its text with no I/O: either a *master* playlist listing
/// variants (renditions of one presentation at different bit rates) or a *media* playlist listing
/// segments.
///
/// What is kept: for a master playlist each `#EXT-X-STREAM-INF` variant's `BANDWIDTH`,
/// `AVERAGE-BANDWIDTH`, `RESOLUTION`, `CODECS`, `FRAME-RATE`, `AUDIO` and URI (values no picture or rate
/// can have are dropped and listed in `invalidAttributes`); for a media playlist
/// `#EXT-X-TARGETDURATION`, `#EXT-X-MEDIA-SEQUENCE`, `#EXT-X-DISCONTINUITY-SEQUENCE`, `#EXT-X-PLAYLIST-TYPE`,
/// `#EXT-X-ENDLIST`, and per
/// segment its `#EXTINF` duration and title, URI, `#EXT-X-BYTERANGE` (with the implicit offset resolved as
/// RFC 8216 §4.3.2.2 says: right after the previous sub-range of the same URI), `#EXT-X-DISCONTINUITY` and
/// the `#EXT-X-MAP` initialization section in force. Unknown tags and comments are skipped, as the RFC
/// requires of clients. URIs are kept as written; `resolve(_:against:)` joins them to the playlist's own
/// location.
public struct HLSPlaylist: Sendable, Hashable, Codable {
    /// Which of the two playlist kinds this is.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// Lists variants (`#EXT-X-STREAM-INF`).
        case master
        /// Lists segments (`#EXTINF`).
        case media
    }

    /// Master or media.
    public var kind: Kind
    /// `#EXT-X-VERSION`, when given.
    public var version: Int?
    /// Variants, for a master playlist, in playlist order.
    public var variants: [Variant] = []
    /// `#EXT-X-TARGETDURATION` in seconds, for a media playlist.
    public var targetDuration: Double?
    /// `#EXT-X-MEDIA-SEQUENCE` (0 when absent).
    public var mediaSequence: Int = 0
    /// `#EXT-X-DISCONTINUITY-SEQUENCE`: the discontinuity sequence number of the first segment (0 when
    /// absent, RFC 8216 §4.3.3.3).
    public var discontinuitySequence: Int = 0
    /// `#EXT-X-PLAYLIST-TYPE` (`VOD` or `EVENT`), when given.
    public var playlistType: String?
    /// Segments, for a media playlist, in playlist order.
    public var segments: [Segment] = []
    /// Whether `#EXT-X-ENDLIST` is present: no segment will be added (video on demand, or a finished event).
    public var hasEndList = false
    /// `#EXT-X-SERVER-CONTROL`'s `HOLD-BACK`: how far from the live edge a player should start, seconds.
    public var holdBack: Double?
    /// `#EXT-X-SERVER-CONTROL`'s `PART-HOLD-BACK`: the hold-back for a player that plays parts (LL-HLS).
    public var partHoldBack: Double?
    /// `#EXT-X-SERVER-CONTROL`'s `CAN-BLOCK-RELOAD=YES`: the server holds `_HLS_msn`/`_HLS_part` reloads.
    public var canBlockReload = false
    /// `#EXT-X-SERVER-CONTROL`'s `CAN-SKIP-UNTIL`: how old segments may be skipped by a delta update, seconds.
    public var canSkipUntil: Double?
    /// `#EXT-X-PART-INF`'s `PART-TARGET`: the longest a part may be, seconds (LL-HLS).
    public var partTarget: Double?
    /// The parts listed after the last segment: the segment in progress, numbered as the next segment.
    public var trailingParts: [Part] = []
    /// `#EXT-X-PRELOAD-HINT`s, in playlist order.
    public var preloadHints: [PreloadHint] = []
    /// `#EXT-X-SKIP`'s `SKIPPED-SEGMENTS` of a delta update (0 in a full playlist): the first listed segment
    /// is numbered `mediaSequence + skippedSegments`.
    public var skippedSegments = 0
    /// Whether the playlist is a delta update (it has `#EXT-X-SKIP`).
    public var isDeltaUpdate = false
    /// `#EXT-X-SKIP`'s `RECENTLY-REMOVED-DATERANGES`: the tab-separated ids, split.
    public var recentlyRemovedDateRanges: [String] = []
    /// `#EXT-X-RENDITION-REPORT`s, in playlist order.
    public var renditionReports: [RenditionReport] = []
    /// Parts kept at most (`partsKept`): the newest, counted from the end; older segments' parts are
    /// dropped, as no client needs parts that far from the live edge.
    public static let maxParts = 10_000

    /// Every part, oldest first: the segments' then the trailing ones.
    public var allParts: [Part] { segments.flatMap(\.parts) + trailingParts }

    /// The hold-back a player applies when it starts, seconds from the live edge, and the rule that gave it:
    /// `PART-HOLD-BACK` when `playsParts` and the playlist has one, else `HOLD-BACK`, else three target
    /// durations (RFC 8216bis §6.3.3's default, which hls.js's `liveSyncDurationCount` and AVPlayer follow).
    public func holdBack(playsParts: Bool) -> (seconds: Double, rule: String)? {
        if playsParts, let partHoldBack { return (partHoldBack, "PART-HOLD-BACK") }
        if let holdBack { return (holdBack, "HOLD-BACK") }
        if let targetDuration { return (3 * targetDuration, "3 x EXT-X-TARGETDURATION") }
        return nil
    }

    /// The sum of the segments' durations, in seconds.
    public var totalDuration: Double { segments.reduce(0) { $0 + $1.duration } }

    /// Parses playlist text; throws when it does not start with `#EXTM3U`, or a tag the model relies on
    /// is malformed (a variant without `BANDWIDTH` or URI, an `#EXTINF` without a number or URI, a bad
    /// byte range). `#EXT-X-STREAM-INF` makes it a master playlist, `#EXTINF` a media playlist; a playlist
    /// with both is rejected.
    public static func parse(_ text: String) throws(HLSPlaylistError) -> HLSPlaylist {
        var lines: [(number: Int, text: Substring)] = []
        var number = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            var line = raw
            while let last = line.last, last == "\r" || last == " " || last == "\t" { line.removeLast() }
            while let first = line.first, first == " " || first == "\t" || first == "\u{FEFF}" { line.removeFirst() }
            if !line.isEmpty { lines.append((number, line)) }
        }
        guard let first = lines.first, first.text == "#EXTM3U" else {
            throw HLSPlaylistError(line: lines.first?.number ?? 1, reason: "does not start with #EXTM3U")
        }
        var playlist = HLSPlaylist(kind: .media)
        var sawVariant = false
        var sawSegment = false
        var pendingVariant: (line: Int, variant: Variant)?
        var pendingSegment: (line: Int, duration: Double, title: String?)?
        var pendingRange: ByteRange?
        var pendingDiscontinuity = false
        var pendingDateTime: Double?
        var currentMap: Map?
        var lastRangeEnd: [String: Int64] = [:]
        var rangeLine = 0
        var pendingParts: [Part] = []
        var partCount = 0
        for (lineNumber, line) in lines.dropFirst() {
            if line.hasPrefix("#") {
                guard line.hasPrefix("#EXT") else { continue }
                let (tag, value) = splitTag(line)
                switch tag {
                case "#EXT-X-VERSION":
                    playlist.version = Int(value)
                case "#EXT-X-TARGETDURATION":
                    guard let duration = Double(value), duration >= 0, duration.isFinite else {
                        throw HLSPlaylistError(line: lineNumber, reason: "has a target duration that is not a number")
                    }
                    guard duration <= ResourceLimits.longestDuration else {
                        throw HLSPlaylistError(line: lineNumber, reason: Self.tooLong("#EXT-X-TARGETDURATION"))
                    }
                    playlist.targetDuration = duration
                case "#EXT-X-MEDIA-SEQUENCE":
                    guard let sequence = Int(value) else {
                        throw HLSPlaylistError(line: lineNumber, reason: "has a media sequence that is not a number")
                    }
                    playlist.mediaSequence = sequence
                case "#EXT-X-DISCONTINUITY-SEQUENCE":
                    guard let sequence = Int(value) else {
                        throw HLSPlaylistError(line: lineNumber, reason: "has a discontinuity sequence that is not a number")
                    }
                    playlist.discontinuitySequence = sequence
                case "#EXT-X-PLAYLIST-TYPE":
                    playlist.playlistType = String(value)
                case "#EXT-X-ENDLIST":
                    playlist.hasEndList = true
                case "#EXT-X-DISCONTINUITY":
                    pendingDiscontinuity = true
                case "#EXT-X-PROGRAM-DATE-TIME":
                    // A date no clock can read is left out, as a client ignores what it cannot use.
                    pendingDateTime = ProgramDateTime.parse(value)
                case "#EXT-X-SERVER-CONTROL":
                    let attributes = parseAttributes(value)
                    playlist.holdBack = attributes["HOLD-BACK"].flatMap(seconds)
                    playlist.partHoldBack = attributes["PART-HOLD-BACK"].flatMap(seconds)
                    playlist.canSkipUntil = attributes["CAN-SKIP-UNTIL"].flatMap(seconds)
                    playlist.canBlockReload = attributes["CAN-BLOCK-RELOAD"] == "YES"
                case "#EXT-X-PART-INF":
                    playlist.partTarget = parseAttributes(value)["PART-TARGET"].flatMap(seconds)
                case "#EXT-X-PART":
                    let attributes = parseAttributes(value)
                    guard let uri = attributes["URI"], let duration = attributes["DURATION"].flatMap(seconds) else {
                        throw HLSPlaylistError(line: lineNumber, reason: "has an #EXT-X-PART without a URI or a DURATION in seconds")
                    }
                    var range: ByteRange?
                    if let text = attributes["BYTERANGE"] {
                        guard let parsed = parseByteRange(Substring(text)),
                            let offset = parsed.offset ?? lastRangeEnd[uri]
                        else {
                            throw HLSPlaylistError(line: lineNumber, reason: "has an #EXT-X-PART with a bad BYTERANGE (or one without an offset and no earlier range of the same URI)")
                        }
                        let (end, overflow) = offset.addingReportingOverflow(parsed.length)
                        guard !overflow else {
                            throw HLSPlaylistError(line: lineNumber, reason: "has an #EXT-X-PART BYTERANGE that ends past the largest offset")
                        }
                        lastRangeEnd[uri] = end
                        range = ByteRange(length: parsed.length, offset: offset)
                    }
                    let (sequence, overflow) = playlist.mediaSequence.addingReportingOverflow(playlist.skippedSegments &+ playlist.segments.count)
                    guard !overflow else {
                        throw HLSPlaylistError(line: lineNumber, reason: "numbers its parts past the largest media sequence")
                    }
                    // The segment's date (its own, pending, or carried from the one before) plus the parts before.
                    var date = pendingDateTime
                    if date == nil, !pendingDiscontinuity, let previous = playlist.segments.last, let start = previous.programDateTime {
                        date = start + previous.duration
                    }
                    let offset = pendingParts.reduce(0) { $0 + $1.duration }
                    pendingParts.append(Part(
                        uri: uri, duration: duration, independent: attributes["INDEPENDENT"] == "YES", byteRange: range,
                        gap: attributes["GAP"] == "YES", sequence: sequence, index: pendingParts.count,
                        programDateTime: date.map { $0 + offset }, map: currentMap))
                    partCount += 1
                case "#EXT-X-PRELOAD-HINT":
                    let attributes = parseAttributes(value)
                    guard let type = attributes["TYPE"], let uri = attributes["URI"] else {
                        throw HLSPlaylistError(line: lineNumber, reason: "has an #EXT-X-PRELOAD-HINT without a TYPE or URI")
                    }
                    // A hostile playlist's thousands of hints are not kept: a client uses the last one of a type.
                    if playlist.preloadHints.count < 16 {
                        playlist.preloadHints.append(PreloadHint(
                            type: type, uri: uri, byteRangeStart: attributes["BYTERANGE-START"].flatMap { Int64($0) }.flatMap { $0 >= 0 ? $0 : nil },
                            byteRangeLength: attributes["BYTERANGE-LENGTH"].flatMap { Int64($0) }.flatMap { $0 >= 0 ? $0 : nil }))
                    }
                case "#EXT-X-SKIP":
                    let attributes = parseAttributes(value)
                    guard let skipped = attributes["SKIPPED-SEGMENTS"].flatMap({ Int($0) }), skipped >= 0, playlist.segments.isEmpty else {
                        throw HLSPlaylistError(line: lineNumber, reason: "has an #EXT-X-SKIP without a SKIPPED-SEGMENTS count, or after a segment")
                    }
                    playlist.skippedSegments = skipped
                    playlist.isDeltaUpdate = true
                    playlist.recentlyRemovedDateRanges = attributes["RECENTLY-REMOVED-DATERANGES"].map {
                        $0.split(separator: "\t").prefix(1_000).map(String.init)
                    } ?? []
                case "#EXT-X-RENDITION-REPORT":
                    let attributes = parseAttributes(value)
                    if let uri = attributes["URI"], playlist.renditionReports.count < 100 {
                        playlist.renditionReports.append(RenditionReport(
                            uri: uri, lastSequence: attributes["LAST-MSN"].flatMap { Int($0) },
                            lastPart: attributes["LAST-PART"].flatMap { Int($0) }))
                    }
                case "#EXT-X-MAP":
                    let attributes = parseAttributes(value)
                    guard let uri = attributes["URI"] else {
                        throw HLSPlaylistError(line: lineNumber, reason: "has an #EXT-X-MAP without a URI")
                    }
                    var range: ByteRange?
                    if let text = attributes["BYTERANGE"] {
                        guard let parsed = parseByteRange(Substring(text)), let offset = parsed.offset else {
                            throw HLSPlaylistError(line: lineNumber, reason: "has an #EXT-X-MAP with a bad BYTERANGE")
                        }
                        range = ByteRange(length: parsed.length, offset: offset)
                    }
                    currentMap = Map(uri: uri, byteRange: range)
                case "#EXTINF":
                    let parts = value.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
                    guard let durationText = parts.first, let duration = Double(durationText), duration >= 0,
                        duration.isFinite
                    else {
                        throw HLSPlaylistError(line: lineNumber, reason: "has an #EXTINF whose duration is not a number")
                    }
                    guard duration <= ResourceLimits.longestDuration else {
                        throw HLSPlaylistError(line: lineNumber, reason: Self.tooLong("#EXTINF"))
                    }
                    let title = parts.count > 1 && !parts[1].isEmpty ? String(parts[1]) : nil
                    pendingSegment = (lineNumber, duration, title)
                    sawSegment = true
                case "#EXT-X-BYTERANGE":
                    guard let parsed = parseByteRange(value) else {
                        throw HLSPlaylistError(line: lineNumber, reason: "has a malformed #EXT-X-BYTERANGE")
                    }
                    pendingRange = ByteRange(length: parsed.length, offset: parsed.offset ?? -1)
                    rangeLine = lineNumber
                case "#EXT-X-STREAM-INF":
                    let attributes = parseAttributes(value)
                    guard let bandwidthText = attributes["BANDWIDTH"], let bandwidth = Int(bandwidthText) else {
                        throw HLSPlaylistError(line: lineNumber, reason: "has an #EXT-X-STREAM-INF without a BANDWIDTH")
                    }
                    pendingVariant = (lineNumber, variant(bandwidth: bandwidth, attributes: attributes))
                    sawVariant = true
                default:
                    continue
                }
                continue
            }
            // A URI line closes the tag that announced it.
            let uri = String(line)
            if var variant = pendingVariant?.variant {
                variant.uri = uri
                playlist.variants.append(variant)
                pendingVariant = nil
            } else if let segment = pendingSegment {
                var range = pendingRange
                if var resolved = range, resolved.offset < 0 {
                    guard let previous = lastRangeEnd[uri] else {
                        throw HLSPlaylistError(
                            line: rangeLine,
                            reason: "has an #EXT-X-BYTERANGE without an offset and no earlier range of the same URI")
                    }
                    resolved.offset = previous
                    range = resolved
                }
                if let range {
                    let (end, overflow) = range.offset.addingReportingOverflow(range.length)
                    guard !overflow else {
                        throw HLSPlaylistError(line: rangeLine, reason: "has an #EXT-X-BYTERANGE that ends past the largest offset")
                    }
                    lastRangeEnd[uri] = end
                }
                // A hostile media sequence near Int.max must not trap when the segments are numbered.
                let (sequence, overflow) = playlist.mediaSequence.addingReportingOverflow(playlist.skippedSegments &+ playlist.segments.count)
                guard !overflow else {
                    throw HLSPlaylistError(line: lineNumber, reason: "numbers its segments past the largest media sequence")
                }
                var carried: Double?
                if !pendingDiscontinuity, let previous = playlist.segments.last, let date = previous.programDateTime {
                    carried = date + previous.duration
                }
                var made = Segment(
                    uri: uri, duration: segment.duration, title: segment.title, byteRange: range,
                    sequence: sequence,
                    discontinuity: pendingDiscontinuity, map: currentMap)
                made.programDateTime = pendingDateTime ?? carried
                made.hasOwnProgramDateTime = pendingDateTime != nil
                made.parts = pendingParts
                pendingParts = []
                playlist.segments.append(made)
                pendingDateTime = nil
                pendingSegment = nil
                pendingRange = nil
                pendingDiscontinuity = false
            } else {
                throw HLSPlaylistError(line: lineNumber, reason: "has a URI that no #EXTINF or #EXT-X-STREAM-INF announces")
            }
        }
        if let pendingVariant {
            throw HLSPlaylistError(line: pendingVariant.line, reason: "has an #EXT-X-STREAM-INF that no URI follows")
        }
        if let pendingSegment {
            throw HLSPlaylistError(line: pendingSegment.line, reason: "has an #EXTINF that no URI follows")
        }
        if sawVariant && sawSegment {
            throw HLSPlaylistError(line: 1, reason: "mixes variants and segments (a playlist is master or media, not both)")
        }
        playlist.kind = sawVariant ? .master : .media
        playlist.trailingParts = pendingParts
        if partCount > maxParts { playlist.keepNewestParts() }
        return playlist
    }
}
