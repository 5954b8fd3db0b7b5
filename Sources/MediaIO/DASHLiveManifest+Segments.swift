extension DASHLiveManifest.Timing {
    /// One segment as a template names it: its number (for `$Number$` templates), its start in period
    /// time (seconds from `Period@start`, the presentation time offset removed) and its duration.
    public struct Segment: Sendable, Hashable {
        /// The segment number, for `$Number$` addressing.
        public var number: Int64?
        /// Seconds from the period's start.
        public var start: Double
        /// Seconds.
        public var duration: Double
        /// Whether the manifest lists it (a timeline entry, or any number under `@duration` addressing);
        /// `false` for a segment past the end of the timeline, timed by extrapolating its last entry.
        public var listed: Bool
    }

    /// The segment `url` names, when it is one of this representation's (`media` resolved against
    /// `manifestURL` and matched with its one `$Number$` or `$Time$` as digits); `nil` otherwise.
    public func segment(url: String, manifestURL: String) -> Segment? {
        guard let media else { return nil }
        let template = URLReference.resolve(media, against: manifestURL)
        guard let open = template.range(of: "$Number") ?? template.range(of: "$Time"),
            let close = template[open.upperBound...].firstIndex(of: "$")
        else { return nil }
        let isNumber = template[open].hasPrefix("$Number")
        let prefix = template[..<open.lowerBound]
        let suffix = template[template.index(after: close)...]
        guard url.hasPrefix(prefix), url.hasSuffix(suffix), url.count > prefix.count + suffix.count else { return nil }
        let digits = url.dropFirst(prefix.count).dropLast(suffix.count)
        guard digits.count <= 19, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), let value = Int64(digits) else { return nil }
        return isNumber ? segment(number: value) : segment(time: value)
    }

    /// The URL of the segment whose `$Number$` (or `$Time$`, whichever the template uses) is `value`, with
    /// the template's `%0Nd` width (up to 20); `nil` without a template.
    public func mediaURL(_ value: Int64) -> String? {
        guard let media, let open = media.range(of: "$Number") ?? media.range(of: "$Time"),
            let close = media[open.upperBound...].firstIndex(of: "$")
        else { return nil }
        let format = media[open.upperBound..<close]
        var text = String(value)
        if format.hasPrefix("%0"), format.hasSuffix("d"), let width = Int(format.dropFirst(2).dropLast()), width <= 20,
            text.count < width
        {
            text = String(repeating: "0", count: width - text.count) + text
        }
        return String(media[..<open.lowerBound]) + text + String(media[media.index(after: close)...])
    }

    /// Whether the template addresses segments by `$Number$` (else by `$Time$`).
    public var usesNumber: Bool { media?.contains("$Number") ?? false }

    /// The newest `count` segments complete at `unixTime` (stream clock; their end on the clock passed),
    /// oldest first, as the value their URL carries (`mediaURL`) and their duration; empty when the manifest
    /// does not say (no start time, no template timing).
    public func recentSegments(count: Int, at unixTime: Double, origin: Double) -> [(value: Int64, duration: Double)] {
        let scale = Double(timescale)
        if !timeline.isEmpty {
            let complete = timeline.enumerated().filter { origin + Double($0.element.time - presentationTimeOffset + $0.element.duration) / scale <= unixTime }
            return complete.suffix(max(count, 0)).compactMap { entry in
                let number = startNumber.addingReportingOverflow(Int64(entry.offset))
                if usesNumber, number.overflow { return nil }
                return (usesNumber ? number.partialValue : entry.element.time, Double(entry.element.duration) / scale)
            }
        }
        guard let duration, count > 0 else { return [] }
        let length = Double(duration) / scale
        let done = ((unixTime - origin) / length).rounded(.down)
        guard done.isFinite, done >= 1, done < 1e15 else { return [] }
        let last = Int64(done) - 1
        let first = max(0, last - Int64(count) + 1)
        return (first...last).compactMap { index in
            let number = startNumber.addingReportingOverflow(index)
            return number.overflow ? nil : (number.partialValue, length)
        }
    }

    /// Segment number `number`: from the timeline (extrapolated past its end), else from `@duration`.
    public func segment(number: Int64) -> Segment? {
        let (index, overflow) = number.subtractingReportingOverflow(startNumber)
        guard !overflow, index >= 0 else { return nil }
        let scale = Double(timescale)
        if let last = timeline.last {
            if index < Int64(timeline.count) {
                let slot = timeline[Int(index)]
                return Segment(
                    number: number, start: Double(slot.time - presentationTimeOffset) / scale,
                    duration: Double(slot.duration) / scale, listed: true)
            }
            let beyond = Double(index - Int64(timeline.count) + 1)
            let start = (Double(last.time - presentationTimeOffset) + beyond * Double(last.duration)) / scale
            return Segment(number: number, start: start, duration: Double(last.duration) / scale, listed: false)
        }
        guard let duration else { return nil }
        return Segment(number: number, start: Double(index) * Double(duration) / scale, duration: Double(duration) / scale, listed: true)
    }

    /// The segment starting at `time` (timescale units, `$Time$` addressing).
    public func segment(time: Int64) -> Segment? {
        let scale = Double(timescale)
        let start = (Double(time) - Double(presentationTimeOffset)) / scale
        if let slot = timeline.first(where: { $0.time == time }) {
            return Segment(number: nil, start: start, duration: Double(slot.duration) / scale, listed: true)
        }
        guard let length = timeline.last?.duration ?? duration else { return nil }
        return Segment(number: nil, start: start, duration: Double(length) / scale, listed: false)
    }
}

extension DASHLiveManifest {
    /// When `segment` of `timing` may first be requested, on the stream's clock (Unix seconds): the end of
    /// the segment on the clock (`availabilityStartTime` + `Period@start` + its end) less the
    /// representation's `availabilityTimeOffset`; `nil` without an `availabilityStartTime`.
    public func availabilityStart(of segment: Timing.Segment, in timing: Timing) -> Double? {
        guard let availabilityStartTime else { return nil }
        return availabilityStartTime + periodStart + segment.start + segment.duration - timing.availabilityTimeOffset
    }

    /// When `segment` stops being available: its end on the clock plus `timeShiftBufferDepth` (`nil` when
    /// the manifest gives no depth, or no start time: available for ever).
    public func availabilityEnd(of segment: Timing.Segment) -> Double? {
        guard let availabilityStartTime, let timeShiftBufferDepth else { return nil }
        return availabilityStartTime + periodStart + segment.start + segment.duration + timeShiftBufferDepth
    }

    /// The first usable `UTCTiming` (a scheme bufprobe reads, not NTP), and the schemes passed over.
    public var usableUTCTiming: (timing: UTCTiming?, skipped: [String]) {
        var skipped: [String] = []
        for timing in utcTimings {
            if let scheme = timing.scheme, scheme != .ntp { return (timing, skipped) }
            skipped.append(timing.schemeIdUri)
        }
        return (nil, skipped)
    }

    /// The newest media available at `unixTime` (stream clock) for `timing`: the end of the last segment
    /// whose availability start (with its offset) has passed, on the clock, but never later than `unixTime`
    /// (a segment open early under `availabilityTimeOffset` holds media only up to now); `nil` when none can
    /// be worked out.
    public func edge(of timing: Timing, at unixTime: Double) -> Double? {
        guard let availabilityStartTime else { return nil }
        let origin = availabilityStartTime + periodStart
        if !timing.timeline.isEmpty {
            let scale = Double(timing.timescale)
            let ends = timing.timeline.map { origin + Double($0.time - timing.presentationTimeOffset + $0.duration) / scale }
            return ends.last(where: { $0 - timing.availabilityTimeOffset <= unixTime }).map { min($0, unixTime) }
        }
        guard let duration = timing.duration else { return nil }
        let length = Double(duration) / Double(timing.timescale)
        let available = ((unixTime - origin + timing.availabilityTimeOffset) / length).rounded(.down)
        guard available.isFinite, available >= 1 else { return nil }
        return min(origin + available * length, unixTime)
    }
}
