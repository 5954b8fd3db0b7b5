import Foundation

// Segment addressing: SegmentTemplate (with or without a SegmentTimeline), SegmentList and SegmentBase.
extension DASHManifest {
    static func templateSegments(_ template: XMLTree.Element, _ context: Context) throws(DASHManifestError)
        -> (Resource?, Addressing)
    {
        let timescale = try positive(template.attributes["timescale"] ?? "1", field: "SegmentTemplate@timescale")
        let startNumber = try whole(template.attributes["startNumber"] ?? "1", field: "SegmentTemplate@startNumber")
        guard let media = template.attributes["media"] else {
            throw DASHManifestError(reason: "gives Representation \(context.id) a SegmentTemplate without @media")
        }
        var initialization: Resource?
        if let text = template.attributes["initialization"] {
            initialization = Resource(url: join(try expand(text, context, number: nil, time: nil), onto: context.base))
        } else if let element = template.child("Initialization") {
            initialization = try resource(element, urlKey: "sourceURL", rangeKey: "range", context)
        }
        let timing = try timeline(template, timescale: timescale, context, field: "SegmentTemplate")
        let origin = mediaOrigin(template, timescale: timescale)
        var segments: [Segment] = []
        segments.reserveCapacity(timing.count)
        for (offset, slot) in timing.enumerated() {
            let (number, overflow) = startNumber.addingReportingOverflow(Int64(offset))
            guard !overflow else { throw DASHManifestError(reason: "numbers segments past the largest number") }
            let url = try expand(media, context, number: number, time: slot.time)
            segments.append(Segment(
                duration: slot.duration, resource: Resource(url: join(url, onto: context.base)),
                mediaTime: origin + Double(slot.time) / Double(timescale)))
        }
        return (initialization, .listed(segments))
    }

    static func listSegments(_ list: XMLTree.Element, _ context: Context) throws(DASHManifestError)
        -> (Resource?, Addressing)
    {
        let timescale = try positive(list.attributes["timescale"] ?? "1", field: "SegmentList@timescale")
        let initialization = try list.child("Initialization").map { element throws(DASHManifestError) in
            try resource(element, urlKey: "sourceURL", rangeKey: "range", context)
        }
        let urls = list.children("SegmentURL")
        guard urls.count <= context.limit else {
            throw context.tooMany
        }
        var timing = try timeline(list, timescale: timescale, context, field: "SegmentList", count: urls.count)
        // A list longer than its timing (a @duration with no period length) takes the @duration each.
        if timing.count < urls.count, let last = timing.last {
            // Clamped to a figure Int64 holds, so that no duration (however made) traps the conversion.
            let scaled = (last.duration * Double(timescale)).rounded()
            let step = scaled.isFinite ? Int64(min(max(scaled, 0), 1e15)) : 0
            for index in 1...(urls.count - timing.count) {
                timing.append((time: last.time &+ step &* Int64(index), duration: last.duration))
            }
        }
        let origin = mediaOrigin(list, timescale: timescale)
        var segments: [Segment] = []
        segments.reserveCapacity(urls.count)
        for (element, slot) in zip(urls, timing) {
            segments.append(Segment(
                duration: slot.duration, resource: try resource(element, urlKey: "media", rangeKey: "mediaRange", context),
                mediaTime: origin + Double(slot.time) / Double(timescale)))
        }
        return (initialization, .listed(segments))
    }

    static func baseSegments(_ segmentBase: XMLTree.Element, _ context: Context) throws(DASHManifestError)
        -> (Resource?, Addressing)
    {
        let indexRange = try segmentBase.attributes["indexRange"].map { text throws(DASHManifestError) in
            try byteRange(text, field: "SegmentBase@indexRange")
        }
        var initialization = try segmentBase.child("Initialization").map { element throws(DASHManifestError) in
            try resource(element, urlKey: "sourceURL", rangeKey: "range", context)
        }
        // Without an Initialization element, what precedes the index is the initialization (ftyp, moov).
        if initialization == nil, let indexRange, indexRange.first > 0 {
            initialization = Resource(url: context.base, range: ByteRange(first: 0, last: indexRange.first - 1))
        }
        return (initialization, .indexed(media: context.base, indexRange: indexRange))
    }

    /// `sourceURL`/`media` (default: the representation's own URL) and its byte range.
    static func resource(_ element: XMLTree.Element, urlKey: String, rangeKey: String, _ context: Context)
        throws(DASHManifestError) -> Resource
    {
        let url = element.attributes[urlKey].map { join($0, onto: context.base) } ?? context.base
        let range = try element.attributes[rangeKey].map { text throws(DASHManifestError) in
            try byteRange(text, field: "\(element.name)@\(rangeKey)")
        }
        return Resource(url: url, range: range)
    }

    /// The segments' start times (in the timescale) and durations (seconds): from a `SegmentTimeline`, else
    /// from `@duration` over the period (the last one cut at the period's end), else `count` segments of
    /// `@duration`.
    static func timeline(
        _ element: XMLTree.Element, timescale: Int64, _ context: Context, field: String, count: Int? = nil
    ) throws(DASHManifestError) -> [(time: Int64, duration: Double)] {
        let scale = Double(timescale)
        let periodEnd = context.periodDuration.map { $0 * scale }
        if let timeline = element.child("SegmentTimeline") {
            var slots: [(time: Int64, duration: Double)] = []
            var next: Int64 = 0
            let entries = timeline.children("S")
            for (index, entry) in entries.enumerated() {
                if let text = entry.attributes["t"] { next = try whole(text, field: "S@t") }
                let duration = try positive(entry.attributes["d"] ?? "", field: "S@d")
                var repeats = try integer(entry.attributes["r"] ?? "0", field: "S@r")
                if repeats < 0 {
                    // -1: repeat up to the next S's time, or the end of the period.
                    let end: Double
                    if index + 1 < entries.count, let text = entries[index + 1].attributes["t"] {
                        end = Double(try whole(text, field: "S@t"))
                    } else if let periodEnd {
                        end = periodEnd
                    } else {
                        throw DASHManifestError(reason: "repeats a SegmentTimeline entry to an end it does not give")
                    }
                    // Finite: `end` is a whole number or a duration bounded by `maximumDuration`, and `duration`
                    // is at least 1; the result is clamped to 0...limit before the conversion.
                    repeats = Int64(min(max(((end - Double(next)) / Double(duration)).rounded(.up) - 1, 0), Double(context.limit)))
                }
                guard repeats < Int64(context.limit) - Int64(slots.count) else {
                    throw context.tooMany
                }
                for _ in 0...repeats {
                    slots.append((next, Double(duration) / scale))
                    let (sum, overflow) = next.addingReportingOverflow(duration)
                    guard !overflow else { throw DASHManifestError(reason: "has a SegmentTimeline that runs past the largest time") }
                    next = sum
                }
            }
            return slots
        }
        guard let text = element.attributes["duration"] else {
            if let count, count > 0, let periodEnd {
                let each = periodEnd / Double(count)
                guard each.isFinite, each >= 0 else { throw DASHManifestError(reason: "has a period length no segment time can hold") }
                return (0..<count).map { (Int64(min(each * Double($0), 9e18)), each / scale) }
            }
            throw DASHManifestError(reason: "gives Representation \(context.id) a \(field) with neither @duration nor a SegmentTimeline")
        }
        let duration = try positive(text, field: "\(field)@duration")
        let seconds = Double(duration) / scale
        if let count, context.periodDuration == nil {
            return (0..<count).map { (duration.multipliedReportingOverflow(by: Int64($0)).partialValue, seconds) }
        }
        guard let periodEnd else {
            throw DASHManifestError(reason: "gives no duration (mediaPresentationDuration or Period@duration) to count segments of \(field)@duration by")
        }
        let needed = (periodEnd / Double(duration)).rounded(.up)
        guard count != nil || needed <= Double(context.limit) else {
            throw context.tooMany
        }
        let total = count ?? Int(max(needed, 1))
        var slots: [(time: Int64, duration: Double)] = []
        slots.reserveCapacity(total)
        var time: Int64 = 0
        for index in 0..<total {
            let left = (periodEnd - Double(time)) / scale
            let length = index == total - 1 && count == nil ? min(seconds, max(left, 0)) : seconds
            slots.append((time, length))
            time = time.addingReportingOverflow(duration).overflow ? time : time + duration
        }
        return slots
    }

    /// Where a segment's media time starts from when no `SegmentTimeline` gives it: `@presentationTimeOffset`
    /// over `@timescale` (a timeline's `S@t` is already on the media timeline, and includes it).
    static func mediaOrigin(_ element: XMLTree.Element, timescale: Int64) -> Double {
        guard element.child("SegmentTimeline") == nil, let text = element.attributes["presentationTimeOffset"],
            let offset = UInt64(text)
        else { return 0 }
        return Double(offset) / Double(timescale)
    }

    // MARK: Inheritance

    /// The element `name` as it applies at the last level: attributes merged from the outermost level in
    /// (inner ones win), children (a timeline, an initialization, segment URLs) from the innermost level that
    /// has them.
    static func merged(_ levels: [XMLTree.Element], _ name: String) -> XMLTree.Element? {
        var result: XMLTree.Element?
        for level in levels {
            guard let element = level.child(name) else { continue }
            guard var current = result else {
                result = element
                continue
            }
            current.attributes.merge(element.attributes) { _, inner in inner }
            for childName in Set(element.children.map(\.name)) {
                current.children.removeAll { $0.name == childName }
            }
            current.children += element.children
            result = current
        }
        return result
    }
}
