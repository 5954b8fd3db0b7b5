// Over 400 lines on purpose: one RFC 8216 parser, every tag in one switch over one line reader, so that
// a tag's rule is in one place.
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

    /// A rendition listed by a master playlist.
    public struct Variant: Sendable, Hashable, Codable {
        /// The media playlist's URI, as written.
        public var uri: String
        /// Peak bit rate in bits per second (`BANDWIDTH`, required by the RFC).
        public var bandwidth: Int
        /// Average bit rate in bits per second (`AVERAGE-BANDWIDTH`), when given.
        public var averageBandwidth: Int?
        /// Width and height in pixels (`RESOLUTION`), when given.
        public var resolution: Resolution?
        /// The `CODECS` string, such as `avc1.64001f,mp4a.40.2`, when given.
        public var codecs: String?
        /// Frames per second (`FRAME-RATE`), when given.
        public var frameRate: Double?
        /// The `AUDIO` rendition group, when the variant's audio comes from `#EXT-X-MEDIA` renditions (its
        /// own media playlist may then carry no audio although `CODECS` names an audio codec).
        public var audioGroup: String?
        /// Attributes given with a value no picture or rate can have, as written (`RESOLUTION=99999999999x0`,
        /// `FRAME-RATE=nan`, `AVERAGE-BANDWIDTH=-1`): the value is dropped (its property is `nil`) and named here.
        public var invalidAttributes: [String] = []
    }

    /// The largest width or height `RESOLUTION` may declare: no codec encodes a side above 65,535 pixels.
    public static let maxResolutionSide = 65_535
    /// The highest `FRAME-RATE` accepted: above any real video.
    public static let maxFrameRate = 1_000.0

    /// Picture size of a variant.
    public struct Resolution: Sendable, Hashable, Codable, CustomStringConvertible {
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int
        /// Creates a resolution.
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }

        /// `WIDTHxHEIGHT`.
        public var description: String { "\(width)x\(height)" }
    }

    /// A byte sub-range of a resource, with its offset always resolved.
    public struct ByteRange: Sendable, Hashable, Codable {
        /// Length in bytes.
        public var length: Int64
        /// Offset of the first byte.
        public var offset: Int64

        /// Creates a byte range.
        public init(length: Int64, offset: Int64) {
            self.length = length
            self.offset = offset
        }
    }

    /// An initialization section (`#EXT-X-MAP`): fetched before the first segment that needs it.
    public struct Map: Sendable, Hashable, Codable {
        /// URI as written.
        public var uri: String
        /// The sub-range, when only part of the resource is the map.
        public var byteRange: ByteRange?

        /// Creates a map.
        public init(uri: String, byteRange: ByteRange? = nil) {
            self.uri = uri
            self.byteRange = byteRange
        }
    }

    /// A media segment.
    public struct Segment: Sendable, Hashable, Codable {
        /// URI as written.
        public var uri: String
        /// Duration in seconds from `#EXTINF`.
        public var duration: Double
        /// The optional title after the duration in `#EXTINF`.
        public var title: String?
        /// The sub-range of `uri` that is this segment, when `#EXT-X-BYTERANGE` applies.
        public var byteRange: ByteRange?
        /// Media sequence number.
        public var sequence: Int
        /// Whether `#EXT-X-DISCONTINUITY` precedes it (timestamps or encoding change here).
        public var discontinuity: Bool
        /// The initialization section in force for this segment.
        public var map: Map?
        /// When its first sample was captured, seconds since the Unix epoch: its own
        /// `#EXT-X-PROGRAM-DATE-TIME`, else the previous segment's plus that segment's duration (RFC 8216
        /// §4.3.2.6: the tag applies to the next segment, and clients extrapolate from it), never across a
        /// discontinuity; `nil` when the playlist maps none of its media to the clock.
        public var programDateTime: Double?
        /// Whether `programDateTime` was written on this segment rather than carried from an earlier one.
        public var hasOwnProgramDateTime = false
        /// Its partial segments (`#EXT-X-PART` lines before its URI, LL-HLS), in order; empty when the
        /// playlist lists none for it (older segments usually).
        public var parts: [Part] = []
    }

    /// A partial segment (`#EXT-X-PART`, RFC 8216bis §4.4.4.9): a slice of the segment whose URI follows it,
    /// published before the whole segment is.
    public struct Part: Sendable, Hashable, Codable {
        /// URI as written.
        public var uri: String
        /// `DURATION` in seconds.
        public var duration: Double
        /// `INDEPENDENT=YES`: the part starts with an independent frame (a keyframe).
        public var independent: Bool
        /// `BYTERANGE`, with an omitted offset resolved as for segments (right after the previous sub-range
        /// of the same URI).
        public var byteRange: ByteRange?
        /// `GAP=YES`: the part is not available and must not be loaded.
        public var gap: Bool
        /// The media sequence number of the segment it belongs to.
        public var sequence: Int
        /// Its index within that segment, from 0.
        public var index: Int
        /// When its first sample was captured (Unix seconds): its segment's program date-time plus the
        /// durations of the parts before it; `nil` when the playlist maps no media to the clock.
        public var programDateTime: Double?
        /// The initialization section in force for it.
        public var map: Map?
    }

    /// `#EXT-X-PRELOAD-HINT` (RFC 8216bis §4.4.5.3): a resource the server says comes next, which a client may
    /// request before it is listed.
    public struct PreloadHint: Sendable, Hashable, Codable {
        /// `TYPE`: `PART` or `MAP`, as written.
        public var type: String
        /// URI as written.
        public var uri: String
        /// `BYTERANGE-START`, when given.
        public var byteRangeStart: Int64?
        /// `BYTERANGE-LENGTH`, when given.
        public var byteRangeLength: Int64?
    }

    /// `#EXT-X-RENDITION-REPORT` (RFC 8216bis §4.4.5.4): where another rendition's playlist stands.
    public struct RenditionReport: Sendable, Hashable, Codable {
        /// The rendition's media playlist URI, as written.
        public var uri: String
        /// `LAST-MSN`, when given.
        public var lastSequence: Int?
        /// `LAST-PART`, when given.
        public var lastPart: Int?
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

    /// Drops the parts of the oldest segments until at most `maxParts` are left.
    private mutating func keepNewestParts() {
        var left = Self.maxParts - trailingParts.count
        if left < 0 {
            trailingParts.removeFirst(-left)
            left = 0
        }
        for index in segments.indices.reversed() {
            if segments[index].parts.count > left {
                segments[index].parts.removeAll()
                left = 0
            } else {
                left -= segments[index].parts.count
            }
        }
    }

    /// `uri` resolved against the location of the playlist it was read from (a path or URL), by
    /// `URLReference`'s rules.
    public static func resolve(_ uri: String, against playlistLocation: String) -> String {
        URLReference.resolve(uri, against: playlistLocation)
    }

    /// A non-negative number of seconds no longer than `ResourceLimits.longestDuration`, else `nil`.
    private static func seconds(_ text: String) -> Double? {
        guard let value = Double(text), value.isFinite, value >= 0, value <= ResourceLimits.longestDuration else { return nil }
        return value
    }

    /// The reason for a duration beyond `ResourceLimits.longestDuration`.
    private static func tooLong(_ tag: String) -> String {
        "has an \(tag) longer than 7 days (604,800 s), the longest duration bufprobe accepts, as on the command line"
    }

    private init(kind: Kind) {
        self.kind = kind
    }

    /// A variant from its `#EXT-X-STREAM-INF` attributes: every value a picture or rate cannot have is
    /// dropped and named in `invalidAttributes` (a hostile master must not reach arithmetic with it).
    private static func variant(bandwidth: Int, attributes: [String: String]) -> Variant {
        var variant = Variant(uri: "", bandwidth: bandwidth)
        variant.codecs = attributes["CODECS"]
        variant.audioGroup = attributes["AUDIO"]
        if let text = attributes["AVERAGE-BANDWIDTH"] {
            if let value = Int(text), value > 0 {
                variant.averageBandwidth = value
            } else {
                variant.invalidAttributes.append("AVERAGE-BANDWIDTH=\(text)")
            }
        }
        if let text = attributes["FRAME-RATE"] {
            if let value = Double(text), value.isFinite, value > 0, value <= maxFrameRate {
                variant.frameRate = value
            } else {
                variant.invalidAttributes.append("FRAME-RATE=\(text)")
            }
        }
        if let text = attributes["RESOLUTION"] {
            variant.resolution = parseResolution(text)
            if variant.resolution == nil { variant.invalidAttributes.append("RESOLUTION=\(text)") }
        }
        return variant
    }

    /// `WIDTHxHEIGHT` with both sides in 1...`maxResolutionSide` (RFC 8216 §4.3.4.2: a decimal-resolution).
    static func parseResolution(_ text: String) -> Resolution? {
        let sides = text.split(separator: "x", omittingEmptySubsequences: false)
        guard sides.count == 2, let width = Int(sides[0]), let height = Int(sides[1]),
            (1...maxResolutionSide).contains(width), (1...maxResolutionSide).contains(height)
        else { return nil }
        return Resolution(width: width, height: height)
    }

    /// `#TAG:value` into `#TAG` and `value` (empty when there is no colon).
    private static func splitTag(_ line: Substring) -> (Substring, Substring) {
        guard let colon = line.firstIndex(of: ":") else { return (line, "") }
        return (line[..<colon], line[line.index(after: colon)...])
    }

    /// `length[@offset]`.
    private static func parseByteRange(_ text: Substring) -> (length: Int64, offset: Int64?)? {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2, let length = Int64(parts[0]), length >= 0 else { return nil }
        if parts.count == 2 {
            guard let offset = Int64(parts[1]), offset >= 0 else { return nil }
            return (length, offset)
        }
        return (length, nil)
    }

    /// An attribute list (`KEY=value,KEY="quoted, with commas"`) as a dictionary, quotes removed.
    static func parseAttributes(_ text: Substring) -> [String: String] {
        var result: [String: String] = [:]
        var index = text.startIndex
        while index < text.endIndex {
            guard let equals = text[index...].firstIndex(of: "=") else { break }
            let key = String(text[index..<equals]).trimmingSpaces()
            var valueStart = text.index(after: equals)
            var value: String
            if valueStart < text.endIndex, text[valueStart] == "\"" {
                valueStart = text.index(after: valueStart)
                let close = text[valueStart...].firstIndex(of: "\"") ?? text.endIndex
                value = String(text[valueStart..<close])
                index = close < text.endIndex ? text.index(after: close) : close
                if let comma = text[index...].firstIndex(of: ",") {
                    index = text.index(after: comma)
                } else {
                    index = text.endIndex
                }
            } else {
                let comma = text[valueStart...].firstIndex(of: ",") ?? text.endIndex
                value = String(text[valueStart..<comma])
                index = comma < text.endIndex ? text.index(after: comma) : comma
            }
            value = value.trimmingSpaces()
            result[key] = value
        }
        return result
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
