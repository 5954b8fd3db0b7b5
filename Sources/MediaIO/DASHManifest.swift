import Foundation

/// A static MPEG-DASH manifest (ISO/IEC 23009-1 MPD), parsed from its XML with no I/O other than the
/// text given: its adaptation sets and representations, each with its segments' URLs, byte ranges and
/// durations, and its initialization segment.
///
/// What is read: `MPD@type` and `@mediaPresentationDuration`; one `Period` (its `@duration`); per
/// `AdaptationSet` its content type (`@contentType`, `@mimeType`, or the codecs); per `Representation`
/// `@id`, `@bandwidth`, `@width`, `@height`, `@codecs`; `BaseURL` at every level, each resolved against the
/// one above (the manifest's own location last, by the caller); and segment addressing, inherited from
/// Period to AdaptationSet to Representation as the standard says:
/// - `SegmentTemplate` with `SegmentTimeline` (`S@t`, `@d`, `@r`, `@r="-1"` to the end of the period) or
///   with `@duration`, its `@media` and `@initialization` templates expanded (`$RepresentationID$`,
///   `$Number$`, `$Time$`, `$Bandwidth$`, with a `%0Nd` width up to 20, and `$$`): what FFmpeg's `dash`
///   muxer writes;
/// - `SegmentList` (`SegmentURL@media`, `@mediaRange`; `Initialization@sourceURL`, `@range`), timed by
///   `@duration` or a `SegmentTimeline`: FFmpeg's `-use_template 0` and `-single_file 1`;
/// - `SegmentBase` (`@indexRange`, `Initialization@range`): one file whose `sidx` box lists the segments
///   (read from disk by `segments(of:manifestPath:)`).
///
/// Limits, so no manifest can make this trap or take unbounded memory: the XML is bounded by `XMLTree`;
/// at most `maximumSegments` segments per representation and `maximumTotalSegments` in all (counted before
/// any URL is made); times and counts are checked before any
/// arithmetic (negative, overflowing or absurd values are refused with a sentence).
public struct DASHManifest: Sendable, Hashable {
    /// What a representation carries.
    public enum ContentKind: String, Sendable, Hashable {
        /// Video.
        case video
        /// Audio.
        case audio
        /// Anything else (subtitles, images, unknown).
        case other
    }

    /// Bytes `first...last` of a resource (a DASH byte range, both ends included).
    public struct ByteRange: Sendable, Hashable {
        /// The first byte.
        public var first: Int64
        /// The last byte.
        public var last: Int64
        /// How many bytes.
        public var length: Int64 { last - first + 1 }
    }

    /// A resource: a URL relative to the manifest (or absolute), and optionally the part of it meant.
    public struct Resource: Sendable, Hashable {
        /// The URL, with every `BaseURL` above it applied.
        public var url: String
        /// The byte range, when only part of the resource is meant.
        public var range: ByteRange?
    }

    /// One media segment.
    public struct Segment: Sendable, Hashable {
        /// Duration in seconds.
        public var duration: Double
        /// Where it is.
        public var resource: Resource
        /// Its earliest presentation time on the representation's media timeline as the MPD declares it, in
        /// seconds: `S@t` (or its position times `@duration`, plus `@presentationTimeOffset`) over
        /// `@timescale`; what the media's own timestamps are held against.
        public var mediaTime: Double? = nil
    }

    /// How a representation's segments are found.
    public enum Addressing: Sendable, Hashable {
        /// Listed (a template expanded, or a segment list).
        case listed([Segment])
        /// One file indexed by its `sidx` box, at `indexRange` when given (else found among its boxes).
        case indexed(media: String, indexRange: ByteRange?)
    }

    /// One representation (a variant).
    public struct Representation: Sendable, Hashable {
        /// `@id`.
        public var id: String
        /// `@bandwidth`, bits per second.
        public var bandwidth: Int
        /// Video, audio or other.
        public var kind: ContentKind
        /// `@width` and `@height`, when given.
        public var width: Int?
        /// `@height`, when given.
        public var height: Int?
        /// `@codecs`, when given.
        public var codecs: String?
        /// The initialization segment, when there is one.
        public var initialization: Resource?
        /// The segments.
        public var addressing: Addressing
        /// `@audioSamplingRate` (its first value), samples per second, when given.
        public var audioSamplingRate: Int? = nil
        /// `@mimeType` (the representation's, else its adaptation set's), when given.
        public var mimeType: String? = nil
        /// `@frameRate` as written (`25`, `30000/1001`; the representation's, else its set's), when given.
        public var frameRate: String? = nil
        /// `@startWithSAP` (the representation's, else its set's), when given as a whole number.
        public var startWithSAP: Int? = nil
        /// `@presentationTimeOffset` of its segment template or list, seconds (0 when not given): a segment's
        /// `mediaTime` minus it is its time in the period.
        public var presentationTimeOffset: Double = 0
    }

    /// An adaptation set: representations of one content, interchangeable.
    public struct AdaptationSet: Sendable, Hashable {
        /// What the set carries.
        public var kind: ContentKind
        /// Its representations in manifest order.
        public var representations: [Representation]
        /// `@id`, when given.
        public var id: String? = nil
        /// Whether `@segmentAlignment` is `true` (a number also means aligned, as the standard allows).
        public var segmentAlignment: Bool = false
    }

    /// The adaptation sets of the (single) period, in manifest order.
    public var adaptationSets: [AdaptationSet]
    /// The presentation's duration in seconds (the period's, else the MPD's), when given.
    public var duration: Double?
    /// `MPD@minBufferTime` in seconds, when given (Shaka waits for at least this much buffered).
    public var minBufferTime: Double? = nil

    /// The most segments a representation may list.
    public static let maximumSegments = 500_000
    /// The most segments the whole manifest may list (every representation together), so that a small
    /// manifest of many long timelines cannot ask for unbounded memory.
    public static let maximumTotalSegments = 2_000_000
    /// The widest `%0Nd` a template may ask for.
    static let maximumWidth = 20
    /// The longest presentation accepted, in seconds (a year): larger durations are not media.
    static let maximumDuration = 365.0 * 86_400

    /// Parses the manifest's bytes; throws for XML that is not a static single-period MPD, or whose
    /// segments cannot be worked out.
    public static func parse(_ bytes: [UInt8]) throws(DASHManifestError) -> DASHManifest {
        try parse(mpd: mpd(bytes))
    }

    /// Parses a static single-period manifest from its `MPD` element (`mpd(_:)`).
    package static func parse(mpd: XMLTree.Element) throws(DASHManifestError) -> DASHManifest {
        if mpd.attributes["type"] == "dynamic" {
            throw DASHManifestError(reason: "is a live (dynamic) manifest: simulate reads static ones")
        }
        let periods = mpd.children("Period")
        guard let period = periods.first else { throw DASHManifestError(reason: "has no Period") }
        guard periods.count == 1 else {
            throw DASHManifestError(reason: "has \(periods.count) periods: simulate reads single-period manifests")
        }
        let total = try mpd.attributes["mediaPresentationDuration"].map { text throws(DASHManifestError) in
            try isoDuration(text, field: "mediaPresentationDuration")
        }
        let periodStart = try period.attributes["start"].map { text throws(DASHManifestError) in
            try isoDuration(text, field: "Period@start")
        } ?? 0
        let periodDuration = try period.attributes["duration"].map { text throws(DASHManifestError) in
            try isoDuration(text, field: "Period@duration")
        } ?? total.map { max($0 - periodStart, 0) }

        let mpdBase = join(mpd.child("BaseURL")?.text, onto: "")
        let periodBase = join(period.child("BaseURL")?.text, onto: mpdBase)
        var sets: [AdaptationSet] = []
        var listedSegments = 0
        for set in period.children("AdaptationSet") {
            let setBase = join(set.child("BaseURL")?.text, onto: periodBase)
            let setKind = kind(of: set, inherited: .other)
            var representations: [Representation] = []
            for element in set.children("Representation") {
                let levels = [period, set, element]
                let base = join(element.child("BaseURL")?.text, onto: setBase)
                guard let id = element.attributes["id"] else {
                    throw DASHManifestError(reason: "has a Representation without an id")
                }
                guard let bandwidthText = element.attributes["bandwidth"], let bandwidth = Int(bandwidthText),
                    bandwidth >= 0
                else {
                    throw DASHManifestError(reason: "gives Representation \(id) no usable bandwidth (a whole number of bits per second)")
                }
                var representation = Representation(
                    id: id, bandwidth: bandwidth, kind: kind(of: element, inherited: setKind),
                    width: element.attributes["width"].flatMap { Int($0) } ?? set.attributes["width"].flatMap { Int($0) },
                    height: element.attributes["height"].flatMap { Int($0) } ?? set.attributes["height"].flatMap { Int($0) },
                    codecs: element.attributes["codecs"] ?? set.attributes["codecs"], initialization: nil,
                    addressing: .listed([]))
                representation.audioSamplingRate = (element.attributes["audioSamplingRate"]
                    ?? set.attributes["audioSamplingRate"]).flatMap { Int($0.split(separator: " ").first ?? "") }
                representation.mimeType = element.attributes["mimeType"] ?? set.attributes["mimeType"]
                representation.frameRate = element.attributes["frameRate"] ?? set.attributes["frameRate"]
                representation.startWithSAP = (element.attributes["startWithSAP"] ?? set.attributes["startWithSAP"]).flatMap { Int($0) }
                let context = Context(
                    id: id, bandwidth: bandwidth, base: base, periodDuration: periodDuration,
                    limit: min(maximumSegments, maximumTotalSegments - listedSegments))
                if let template = merged(levels, "SegmentTemplate") {
                    (representation.initialization, representation.addressing) = try templateSegments(template, context)
                } else if let list = merged(levels, "SegmentList") {
                    (representation.initialization, representation.addressing) = try listSegments(list, context)
                } else if let segmentBase = merged(levels, "SegmentBase") {
                    (representation.initialization, representation.addressing) = try baseSegments(segmentBase, context)
                } else {
                    // A representation that is one file, with no index: one segment, the whole period.
                    guard let periodDuration else {
                        throw DASHManifestError(reason: "gives Representation \(id) no segments and no duration")
                    }
                    representation.addressing = .listed([Segment(duration: periodDuration, resource: Resource(url: base))])
                }
                if let timing = merged(levels, "SegmentTemplate") ?? merged(levels, "SegmentList"),
                    let offset = timing.attributes["presentationTimeOffset"].flatMap({ UInt64($0) }),
                    case let scale = timing.attributes["timescale"].flatMap({ UInt64($0) }) ?? 1, scale > 0
                {
                    representation.presentationTimeOffset = Double(offset) / Double(scale)
                }
                if case .listed(let segments) = representation.addressing { listedSegments += segments.count }
                representations.append(representation)
            }
            let alignment = set.attributes["segmentAlignment"].map { $0 == "true" || (UInt32($0) ?? 0) > 0 } ?? false
            sets.append(AdaptationSet(kind: setKind, representations: representations, id: set.attributes["id"], segmentAlignment: alignment))
        }
        var manifest = DASHManifest(adaptationSets: sets, duration: periodDuration)
        manifest.minBufferTime = try mpd.attributes["minBufferTime"].map { text throws(DASHManifestError) in
            try isoDuration(text, field: "minBufferTime")
        }
        return manifest
    }

    /// What a representation's segments are resolved with.
    struct Context {
        var id: String
        var bandwidth: Int
        var base: String
        var periodDuration: Double?
        /// The most segments this representation may still list: its own cap, or what is left of the
        /// manifest's.
        var limit: Int

        /// The refusal when it lists more.
        var tooMany: DASHManifestError {
            DASHManifestError(
                reason: "lists more than \(DASHManifest.maximumSegments) segments for Representation \(id), or more than \(DASHManifest.maximumTotalSegments) in all")
        }
    }

    // MARK: Content kind

    static func kind(of element: XMLTree.Element, inherited: ContentKind) -> ContentKind {
        let type = (element.attributes["contentType"] ?? element.attributes["mimeType"] ?? "").lowercased()
        if type.hasPrefix("video") { return .video }
        if type.hasPrefix("audio") { return .audio }
        if !type.isEmpty { return .other }
        if inherited != .other { return inherited }
        let codecs = (element.attributes["codecs"] ?? "").lowercased()
        for prefix in ["avc", "hvc", "hev", "vp8", "vp09", "vp9", "av01", "dvh"] where codecs.hasPrefix(prefix) { return .video }
        for prefix in ["mp4a", "opus", "ac-3", "ec-3", "flac", "vorbis"] where codecs.hasPrefix(prefix) { return .audio }
        if element.attributes["width"] != nil || element.attributes["height"] != nil { return .video }
        return inherited
    }

    // MARK: Templates

    /// Expands `$RepresentationID$`, `$Bandwidth$`, `$Number$`, `$Time$` (each with an optional `%0Nd`)
    /// and `$$` in `template`.
    static func expand(_ template: String, _ context: Context, number: Int64?, time: Int64?) throws(DASHManifestError)
        -> String
    {
        var result = ""
        var rest = Substring(template)
        while let dollar = rest.firstIndex(of: "$") {
            result += rest[..<dollar]
            let afterDollar = rest.index(after: dollar)
            guard let close = rest[afterDollar...].firstIndex(of: "$") else {
                throw DASHManifestError(reason: "has a template with an unclosed $ (\(template))")
            }
            let tag = rest[afterDollar..<close]
            rest = rest[rest.index(after: close)...]
            if tag.isEmpty {
                result += "$"
                continue
            }
            let parts = tag.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts[0]
            var width = 1
            if parts.count == 2 {
                let format = parts[1]
                guard format.hasSuffix("d"), let digits = Int(format.dropLast().isEmpty ? "1" : format.dropLast()),
                    digits >= 0, digits <= maximumWidth
                else {
                    throw DASHManifestError(reason: "has a template format that is not %0Nd with N up to \(maximumWidth) (\(template))")
                }
                width = max(digits, 1)
            }
            let value: String
            switch name {
            case "RepresentationID":
                guard parts.count == 1 else { throw DASHManifestError(reason: "formats $RepresentationID$, which takes no format") }
                value = context.id
            case "Bandwidth": value = String(context.bandwidth)
            case "Number":
                guard let number else { throw DASHManifestError(reason: "uses $Number$ in an initialization template") }
                value = String(number)
            case "Time":
                guard let time else { throw DASHManifestError(reason: "uses $Time$ in an initialization template") }
                value = String(time)
            default:
                throw DASHManifestError(reason: "has an unknown template identifier $\(name)$")
            }
            if name != "RepresentationID", value.count < width {
                result += String(repeating: "0", count: width - value.count)
            }
            result += value
        }
        result += rest
        return result
    }

    // MARK: URLs

    /// `relative` applied to `base` (a BaseURL, or the manifest's location) by `URLReference`'s rules; no
    /// `relative` (or an empty one) keeps `base`.
    public static func join(_ relative: String?, onto base: String) -> String {
        guard let relative, !relative.isEmpty else { return base }
        return base.isEmpty ? relative : URLReference.resolve(relative, against: base)
    }

    // MARK: Numbers

    static func integer(_ text: String, field: String) throws(DASHManifestError) -> Int64 {
        guard let value = Int64(text.trimmingCharacters(in: .whitespaces)) else {
            throw DASHManifestError(reason: "has a \(field) that is not a whole number ('\(text.prefix(40))')")
        }
        return value
    }

    static func whole(_ text: String, field: String) throws(DASHManifestError) -> Int64 {
        let value = try integer(text, field: field)
        guard value >= 0 else { throw DASHManifestError(reason: "has a negative \(field) (\(value))") }
        return value
    }

    static func positive(_ text: String, field: String) throws(DASHManifestError) -> Int64 {
        let value = try integer(text, field: field)
        guard value > 0 else { throw DASHManifestError(reason: "has a \(field) that is not above 0 (\(value))") }
        return value
    }

    /// `first-last`, both whole and in order.
    static func byteRange(_ text: String, field: String) throws(DASHManifestError) -> ByteRange {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let first = Int64(parts[0]), let last = Int64(parts[1]), first >= 0, last >= first,
            last < Int64.max
        else {
            throw DASHManifestError(reason: "has a \(field) that is not a byte range first-last ('\(text.prefix(40))')")
        }
        return ByteRange(first: first, last: last)
    }

    /// An ISO 8601 duration as DASH writes it (`PT1H2M3.5S`, `P1DT2H`): days, hours, minutes, seconds;
    /// years and months are refused (their length is not fixed).
    static func isoDuration(_ text: String, field: String) throws(DASHManifestError) -> Double {
        let failure = DASHManifestError(reason: "has a \(field) that is not an ISO 8601 duration such as PT1M30S ('\(text.prefix(40))')")
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        guard rest.first == "P" else { throw failure }
        rest = rest.dropFirst()
        var total = 0.0
        var inTime = false
        var number = ""
        var sawValue = false
        for character in rest {
            switch character {
            case "T":
                guard !inTime, number.isEmpty else { throw failure }
                inTime = true
            case "0"..."9", ".":
                number.append(character)
            case "D", "H", "M", "S":
                guard let value = Double(number), value.isFinite, value >= 0 else { throw failure }
                let unit: Double
                switch (character, inTime) {
                case ("D", false): unit = 86_400
                case ("H", true): unit = 3_600
                case ("M", true): unit = 60
                case ("S", true): unit = 1
                default: throw failure
                }
                total += value * unit
                number = ""
                sawValue = true
            default:
                throw failure
            }
        }
        guard number.isEmpty, sawValue, total <= maximumDuration else { throw failure }
        return total
    }
}
