import Foundation

/// What a dynamic (live) MPEG-DASH manifest says about time, parsed from its XML with no I/O: when its
/// segments become available and for how long, how often it changes, which clock it is read against, and
/// each representation's segment timing (ISO/IEC 23009-1 §5.3.9.5, §A.3). `DASHManifest` reads addressing
/// for static manifests; this reads what a live one adds, for any manifest (a static one reads `isDynamic`
/// false and is otherwise read the same way).
///
/// Read: `MPD@type`, `@availabilityStartTime`, `@publishTime` (ISO 8601 dates, `ProgramDateTime`; a date
/// without a zone is read as UTC, as DASH asks), `@minimumUpdatePeriod`, `@timeShiftBufferDepth`,
/// `@suggestedPresentationDelay` (`xs:duration`, `DASHManifest.isoDuration`); `UTCTiming` (scheme and value,
/// at the MPD level, first usable one used by the reader); `ServiceDescription/Latency@target` (ms);
/// the first `Period@start`; per representation its `SegmentTemplate` merged from Period to AdaptationSet
/// to Representation (`@media`, `@startNumber`, `@duration`, `@timescale`, `@presentationTimeOffset`,
/// `SegmentTimeline`), with `availabilityTimeOffset` and `availabilityTimeComplete` from the template and
/// from the innermost `BaseURL` (the two offsets add, as DASH-IF IOP says).
///
/// Limits: the XML is bounded by `XMLTree`; a timeline expands to at most `DASHManifest.maximumSegments`
/// segments per representation; every time and duration is checked before arithmetic (negative, past a
/// year, not finite: refused with a sentence, `DASHManifestError`).
public struct DASHLiveManifest: Sendable, Hashable {
    /// A `UTCTiming` element: how a client learns the time the manifest's dates are read against.
    public struct UTCTiming: Sendable, Hashable {
        /// The schemes bufprobe knows.
        public enum Scheme: String, Sendable, Hashable {
            /// `urn:mpeg:dash:utc:http-xsdate:2014`: GET the URL, an `xs:dateTime` body.
            case httpXSDate = "urn:mpeg:dash:utc:http-xsdate:2014"
            /// `urn:mpeg:dash:utc:http-iso:2014`: GET the URL, an ISO 8601 date body.
            case httpISO = "urn:mpeg:dash:utc:http-iso:2014"
            /// `urn:mpeg:dash:utc:http-head:2014`: HEAD the URL, its `Date` header.
            case httpHead = "urn:mpeg:dash:utc:http-head:2014"
            /// `urn:mpeg:dash:utc:direct:2014`: the value is the date.
            case direct = "urn:mpeg:dash:utc:direct:2014"
            /// `urn:mpeg:dash:utc:ntp:2014`: an NTP server (not supported: bufprobe speaks no NTP).
            case ntp = "urn:mpeg:dash:utc:ntp:2014"
        }
        /// `@schemeIdUri` as written.
        public var schemeIdUri: String
        /// `@value` as written (a URL, a date, or a server).
        public var value: String
        /// The scheme, when bufprobe knows it.
        public var scheme: Scheme? { Scheme(rawValue: schemeIdUri.replacingOccurrences(of: ":2012", with: ":2014")) }

        /// A `UTCTiming` element's two attributes.
        public init(schemeIdUri: String, value: String) {
            self.schemeIdUri = schemeIdUri
            self.value = value
        }
    }

    /// One representation's segment timing.
    public struct Timing: Sendable, Hashable {
        /// `@id`.
        public var id: String
        /// Video, audio or other.
        public var kind: DASHManifest.ContentKind
        /// `@bandwidth`, when usable.
        public var bandwidth: Int?
        /// `SegmentTemplate@media` with `$RepresentationID$` and `$Bandwidth$` filled in and every BaseURL
        /// above applied (relative to the manifest when no BaseURL is absolute); `nil` without a template.
        public var media: String?
        /// `SegmentTemplate@initialization`, filled in and based as `media`; `nil` without one.
        public var initialization: String?
        /// `@width`, when given (on the representation or its adaptation set).
        public var width: Int?
        /// `@height`, when given.
        public var height: Int?
        /// `@codecs`, when given.
        public var codecs: String?
        /// `@startNumber` (default 1).
        public var startNumber: Int64 = 1
        /// `@timescale` (default 1).
        public var timescale: Int64 = 1
        /// `@duration` in the timescale, when the template has one.
        public var duration: Int64?
        /// `@presentationTimeOffset` in the timescale (default 0).
        public var presentationTimeOffset: Int64 = 0
        /// The `SegmentTimeline`'s segments, `(t, d)` in the timescale, in order; empty without one.
        public var timeline: [Slot] = []
        /// Seconds a segment may be requested before its nominal availability (BaseURL plus template).
        public var availabilityTimeOffset: Double = 0
        /// `availabilityTimeComplete`, when given (`false`: segments are sent as they are made, LL-DASH).
        public var availabilityTimeComplete: Bool?

        /// One timeline segment: start and duration in the timescale.
        public struct Slot: Sendable, Hashable {
            /// `S@t` (or carried from the previous one).
            public var time: Int64
            /// `S@d`.
            public var duration: Int64
        }
    }

    /// `MPD@type == "dynamic"`.
    public var isDynamic = false
    /// `@availabilityStartTime`, seconds since 1970 (UTC).
    public var availabilityStartTime: Double?
    /// `@publishTime`, seconds since 1970.
    public var publishTime: Double?
    /// `@minimumUpdatePeriod`, seconds.
    public var minimumUpdatePeriod: Double?
    /// `@timeShiftBufferDepth`, seconds.
    public var timeShiftBufferDepth: Double?
    /// `@suggestedPresentationDelay`, seconds.
    public var suggestedPresentationDelay: Double?
    /// `ServiceDescription/Latency@target`, seconds (written in milliseconds).
    public var targetLatency: Double?
    /// The MPD-level `UTCTiming` elements, in manifest order.
    public var utcTimings: [UTCTiming] = []
    /// The first period's `@start`, seconds (0 when absent).
    public var periodStart: Double = 0
    /// Every representation of the first period, in manifest order.
    public var representations: [Timing] = []

    /// Parses the manifest's bytes.
    public static func parse(_ bytes: [UInt8]) throws(DASHManifestError) -> DASHLiveManifest {
        let mpd = try DASHManifest.mpd(bytes)
        var result = DASHLiveManifest()
        result.isDynamic = mpd.attributes["type"] == "dynamic"
        result.availabilityStartTime = try mpd.attributes["availabilityStartTime"].map { text throws(DASHManifestError) in
            try date(text, field: "availabilityStartTime")
        }
        result.publishTime = try mpd.attributes["publishTime"].map { text throws(DASHManifestError) in try date(text, field: "publishTime") }
        result.minimumUpdatePeriod = try duration(mpd, "minimumUpdatePeriod")
        result.timeShiftBufferDepth = try duration(mpd, "timeShiftBufferDepth")
        result.suggestedPresentationDelay = try duration(mpd, "suggestedPresentationDelay")
        if let text = mpd.child("ServiceDescription")?.child("Latency")?.attributes["target"] {
            guard let milliseconds = Double(text), milliseconds.isFinite, milliseconds >= 0,
                milliseconds <= DASHManifest.maximumDuration * 1000
            else {
                throw DASHManifestError(reason: "has a ServiceDescription Latency@target that is not milliseconds ('\(text.prefix(40))')")
            }
            result.targetLatency = milliseconds / 1000
        }
        result.utcTimings = mpd.children("UTCTiming").compactMap { element in
            guard let scheme = element.attributes["schemeIdUri"] else { return nil }
            return UTCTiming(schemeIdUri: scheme, value: element.attributes["value"] ?? "")
        }
        guard let period = mpd.children("Period").first else { return result }
        result.periodStart = try duration(period, "start", field: "Period@start") ?? 0
        let mpdBase = mpd.child("BaseURL")
        let periodBase = period.child("BaseURL")
        for set in period.children("AdaptationSet") {
            for element in set.children("Representation") {
                let levels = [period, set, element]
                let id = element.attributes["id"] ?? ""
                var timing = Timing(id: id, kind: .other)
                timing.kind = kind(element, set)
                timing.bandwidth = element.attributes["bandwidth"].flatMap { Int($0) }
                timing.width = (element.attributes["width"] ?? set.attributes["width"]).flatMap { Int($0) }
                timing.height = (element.attributes["height"] ?? set.attributes["height"]).flatMap { Int($0) }
                timing.codecs = element.attributes["codecs"] ?? set.attributes["codecs"]
                let bases = [mpdBase, periodBase, set.child("BaseURL"), element.child("BaseURL")].compactMap { $0 }
                var base = ""
                for level in bases { base = DASHManifest.join(level.text, onto: base) }
                let baseOffset = try bases.last.map { element throws(DASHManifestError) in try offset(element) } ?? 0
                guard let template = DASHManifest.merged(levels, "SegmentTemplate") else {
                    timing.availabilityTimeOffset = baseOffset
                    result.representations.append(timing)
                    continue
                }
                timing.timescale = try number(template, "timescale", minimum: 1) ?? 1
                timing.startNumber = try number(template, "startNumber", minimum: 0) ?? 1
                timing.duration = try number(template, "duration", minimum: 1)
                timing.presentationTimeOffset = try number(template, "presentationTimeOffset", minimum: 0) ?? 0
                timing.availabilityTimeOffset = baseOffset + (try offset(template))
                timing.availabilityTimeComplete = template.attributes["availabilityTimeComplete"].map { $0 == "true" }
                let fill = { (text: String) in
                    DASHManifest.join(
                        text.replacingOccurrences(of: "$RepresentationID$", with: id)
                            .replacingOccurrences(of: "$Bandwidth$", with: timing.bandwidth.map(String.init) ?? "$Bandwidth$"),
                        onto: base)
                }
                timing.media = template.attributes["media"].map(fill)
                timing.initialization = template.attributes["initialization"].map(fill)
                if let timeline = template.child("SegmentTimeline") { timing.timeline = try slots(timeline, id: id) }
                result.representations.append(timing)
            }
        }
        return result
    }

    // MARK: Fields

    /// An ISO 8601 date-time; one without a zone is UTC.
    static func date(_ text: String, field: String) throws(DASHManifestError) -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let value = ProgramDateTime.parse(trimmed) ?? ProgramDateTime.parse(trimmed + "Z") { return value }
        throw DASHManifestError(reason: "has a \(field) that is not an ISO 8601 date-time such as 2026-01-01T00:00:00Z ('\(text.prefix(40))')")
    }

    private static func duration(_ element: XMLTree.Element, _ name: String, field: String? = nil) throws(DASHManifestError) -> Double? {
        try element.attributes[name].map { text throws(DASHManifestError) in try DASHManifest.isoDuration(text, field: field ?? name) }
    }

    private static func number(_ element: XMLTree.Element, _ name: String, minimum: Int64) throws(DASHManifestError) -> Int64? {
        guard let text = element.attributes[name] else { return nil }
        guard let value = Int64(text.trimmingCharacters(in: .whitespaces)), value >= minimum else {
            throw DASHManifestError(reason: "has a SegmentTemplate@\(name) that is not a whole number of at least \(minimum) ('\(text.prefix(40))')")
        }
        return value
    }

    /// `@availabilityTimeOffset`: seconds, or `INF` (every segment available at once, read as a year).
    private static func offset(_ element: XMLTree.Element) throws(DASHManifestError) -> Double {
        guard let text = element.attributes["availabilityTimeOffset"]?.trimmingCharacters(in: .whitespaces) else { return 0 }
        if text == "INF" { return DASHManifest.maximumDuration }
        guard let value = Double(text), value.isFinite, value >= 0, value <= DASHManifest.maximumDuration else {
            throw DASHManifestError(reason: "has an \(element.name)@availabilityTimeOffset that is not seconds of at least 0 ('\(text.prefix(40))')")
        }
        return value
    }

    private static func kind(_ element: XMLTree.Element, _ set: XMLTree.Element) -> DASHManifest.ContentKind {
        for level in [element, set] {
            let type = (level.attributes["contentType"] ?? level.attributes["mimeType"] ?? "").lowercased()
            if type.hasPrefix("video") { return .video }
            if type.hasPrefix("audio") { return .audio }
        }
        let codecs = (element.attributes["codecs"] ?? set.attributes["codecs"] ?? "").lowercased()
        if codecs.hasPrefix("mp4a") || codecs.hasPrefix("opus") || codecs.hasPrefix("ac-3") || codecs.hasPrefix("ec-3") { return .audio }
        if !codecs.isEmpty || element.attributes["width"] != nil { return .video }
        return .other
    }

    /// The timeline's segments; `@r="-1"` repeats until the next `S@t` (at the end: once, as a live
    /// manifest's last entry can only mean the segments listed so far).
    private static func slots(_ timeline: XMLTree.Element, id: String) throws(DASHManifestError) -> [Timing.Slot] {
        var slots: [Timing.Slot] = []
        var next: Int64 = 0
        let entries = timeline.children("S")
        let tooMany = DASHManifestError(reason: "lists more than \(DASHManifest.maximumSegments) segments in the SegmentTimeline of Representation \(id)")
        for (index, entry) in entries.enumerated() {
            if let text = entry.attributes["t"] {
                guard let value = Int64(text), value >= 0 else { throw DASHManifestError(reason: "has an S@t that is not a whole number ('\(text.prefix(40))')") }
                next = value
            }
            guard let text = entry.attributes["d"], let duration = Int64(text), duration > 0 else {
                throw DASHManifestError(reason: "has an S@d that is not a whole number above 0 in Representation \(id)")
            }
            guard let repeats = Int64(entry.attributes["r"] ?? "0"), repeats >= -1 else {
                throw DASHManifestError(reason: "has an S@r that is not a whole number of at least -1 in Representation \(id)")
            }
            var count = repeats + 1
            if repeats == -1 {
                count = 1
                if index + 1 < entries.count, let text = entries[index + 1].attributes["t"], let end = Int64(text), end > next {
                    count = (end - next + duration - 1) / duration
                }
            }
            guard count <= Int64(DASHManifest.maximumSegments - slots.count) else { throw tooMany }
            for _ in 0..<count {
                slots.append(Timing.Slot(time: next, duration: duration))
                let (sum, overflow) = next.addingReportingOverflow(duration)
                guard !overflow else { throw DASHManifestError(reason: "has a SegmentTimeline that runs past the largest time") }
                next = sum
            }
        }
        return slots
    }
}
