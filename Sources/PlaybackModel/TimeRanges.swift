/// A sorted set of disjoint half-open time ranges in seconds, like `AVPlayerItem.loadedTimeRanges` but
/// exact: ranges are merged when they overlap, touch, or are separated by a gap no wider than `tolerance`,
/// so every gap that remains is wider than `tolerance`.
///
/// Memory is O(number of ranges), i.e. O(number of gaps), not O(number of inserts). Appending ranges in
/// time order (the common case: packets arriving in order) is O(1) amortized; any other insert is
/// O(log n) to find its place plus the cost of merging.
public struct TimeRanges: Sendable, Hashable {
    /// The one default merge tolerance for loaded ranges, 0.1 s, used by every set and tracker unless
    /// given. Timestamp rounding leaves holes of at most one tick between packets (11 µs at 90 kHz, 1 ms in
    /// millisecond time bases such as FLV, Matroska and RTMP, where 1024/44100 s AAC frames and 1/30 s video
    /// frames do not land on whole ticks), and a single dropped frame leaves at most ~42 ms at 24 fps: none
    /// of those is a hole a viewer sees as a freeze, so they must never show as gaps. A real hole of 0.5 s
    /// or more always does.
    public static let defaultTolerance = 0.1

    /// The merge tolerance in seconds used when this set was created, `defaultTolerance` unless given.
    public let tolerance: Double
    /// The ranges, sorted by start, disjoint, and separated by gaps wider than `tolerance`.
    public private(set) var ranges: [TimeRange]

    /// Creates an empty set whose inserts merge across gaps no wider than `tolerance` seconds.
    public init(tolerance: Double = TimeRanges.defaultTolerance) {
        self.tolerance = tolerance.isFinite ? Swift.max(0, tolerance) : 0
        self.ranges = []
    }

    /// Creates a set holding the union of `ranges`, merged with `tolerance`.
    public init(_ ranges: some Sequence<TimeRange>, tolerance: Double = TimeRanges.defaultTolerance) {
        self.init(tolerance: tolerance)
        for range in ranges { insert(range) }
    }

    /// The earliest instant covered, or `nil` when empty.
    public var start: Double? { ranges.first?.start }

    /// The first instant after the last range, or `nil` when empty.
    public var end: Double? { ranges.last?.end }

    /// The sum of the ranges' durations in seconds.
    public var totalDuration: Double { ranges.reduce(0) { $0 + $1.duration } }

    /// Adds `[start, end)`; an empty or NaN range is ignored.
    public mutating func insert(start: Double, end: Double) {
        insert(TimeRange(start: start, end: end))
    }

    /// Adds `range`, merging it with every range it overlaps, touches or lies within `tolerance` of.
    /// An empty or NaN range is ignored.
    public mutating func insert(_ range: TimeRange) {
        guard !range.isEmpty else { return }
        // Fast path first: in-order inserts only ever touch the last range.
        guard let last = ranges.last else {
            ranges.append(range)
            return
        }
        if range.start >= last.start {
            if range.start - last.end <= tolerance {
                if range.end > last.end { ranges[ranges.count - 1].end = range.end }
            } else {
                ranges.append(range)
            }
            return
        }
        // First range that reaches within tolerance of the new start, and first that starts beyond the
        // new end plus tolerance: everything in between merges with the new range.
        let lower = boundary { range.start - $0.end <= tolerance }
        let upper = boundary { $0.start - range.end > tolerance }
        if lower == upper {
            ranges.insert(range, at: lower)
        } else {
            let merged = TimeRange(
                start: Swift.min(ranges[lower].start, range.start), end: Swift.max(ranges[upper - 1].end, range.end))
            ranges.replaceSubrange(lower..<upper, with: CollectionOfOne(merged))
        }
    }

    /// Adds every range of `other`.
    public mutating func formUnion(_ other: TimeRanges) {
        for range in other.ranges { insert(range) }
    }

    /// The index of the first range that ends after `t` (`count` when none): where a search for ranges
    /// overlapping something that starts at `t` begins. O(log n).
    public func firstIndex(endingAfter t: Double) -> Int {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].end > t { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// Whether `t` lies inside one of the ranges (half-open: a range's end is outside it).
    public func contains(_ t: Double) -> Bool { range(containing: t) != nil }

    /// The range that holds `t`, or `nil` when `t` lies in a gap, before the first or after the last range.
    public func range(containing t: Double) -> TimeRange? {
        // A playhead is almost always in the last range; answer that without a search.
        if let last = ranges.last, last.start <= t { return t < last.end ? last : nil }
        let index = boundary { $0.start > t } - 1
        guard index >= 0, ranges[index].contains(t) else { return nil }
        return ranges[index]
    }

    /// The first range that starts at or after `t`, or `nil` when there is none.
    public func firstRange(startingAtOrAfter t: Double) -> TimeRange? {
        let index = boundary { $0.start >= t }
        return index < ranges.count ? ranges[index] : nil
    }

    /// Seconds of media loaded contiguously from `t`: the end of the range holding `t` minus `t`, or 0 when
    /// no range holds `t`. Data after a gap does not count, since playback stops at the gap.
    public func bufferedAhead(from t: Double) -> Double {
        guard let range = range(containing: t) else { return 0 }
        return range.end - t
    }

    /// The instants covered by both sets, normalized with this set's tolerance.
    public func intersection(_ other: TimeRanges) -> TimeRanges {
        var result = TimeRanges(tolerance: tolerance)
        var i = 0
        var j = 0
        while i < ranges.count, j < other.ranges.count {
            let a = ranges[i]
            let b = other.ranges[j]
            if let common = a.clamped(to: b) { result.insert(common) }
            if a.end < b.end { i += 1 } else { j += 1 }
        }
        return result
    }

    /// The instants covered by this set but not by `other`, normalized with this set's tolerance (so a
    /// hole narrower than the tolerance closes again).
    public func subtracting(_ other: TimeRanges) -> TimeRanges {
        var result = TimeRanges(tolerance: tolerance)
        var j = 0
        for var piece in ranges {
            // Ranges of `other` that end before this piece can never matter for later pieces either.
            while j < other.ranges.count, other.ranges[j].end <= piece.start { j += 1 }
            var k = j
            while k < other.ranges.count, other.ranges[k].start < piece.end {
                let hole = other.ranges[k]
                if hole.start > piece.start { result.insert(TimeRange(start: piece.start, end: hole.start)) }
                piece.start = Swift.max(piece.start, hole.end)
                if piece.isEmpty { break }
                k += 1
            }
            if !piece.isEmpty { result.insert(piece) }
        }
        return result
    }

    /// Removes every instant before `t`: ranges that end at or before `t` go, a range holding `t` is cut to
    /// start at `t`. Used to evict data behind the playhead.
    public mutating func removeAll(before t: Double) {
        let firstKept = boundary { $0.end > t }
        // A player with no back buffer calls this at every step with nothing to drop but a range's head.
        if firstKept > 0 { ranges.removeSubrange(0..<firstKept) }
        if let first = ranges.first, first.start < t { ranges[0].start = t }
    }

    /// Removes every instant at or after `t`: ranges that start at or after `t` go, a range holding `t` is
    /// cut to end at `t`.
    public mutating func removeAll(from t: Double) {
        let firstRemoved = boundary { $0.start >= t }
        ranges.removeSubrange(firstRemoved..<ranges.count)
        if let last = ranges.last, last.end > t { ranges[ranges.count - 1].end = t }
    }

    /// The same ranges `offset` seconds earlier: a change of time origin, so nothing merges or drops.
    func shifted(back offset: Double) -> TimeRanges {
        var shifted = self
        shifted.ranges = ranges.map { TimeRange(start: $0.start - offset, end: $0.end - offset) }
        return shifted
    }

    /// The holes between consecutive ranges, in order.
    public var gaps: [TimeRange] {
        zip(ranges, ranges.dropFirst()).map { TimeRange(start: $0.end, end: $1.start) }
    }

    /// The parts of `window` that no range covers, in order: the holes between ranges plus any uncovered
    /// stretch before the first range or after the last one (e.g. `gaps(within: 0..<duration)` of a file).
    public func gaps(within window: TimeRange) -> [TimeRange] {
        guard !window.isEmpty else { return [] }
        var result: [TimeRange] = []
        var cursor = window.start
        let first = boundary { $0.end > window.start }
        for range in ranges[first...] {
            if range.start >= window.end { break }
            if range.start > cursor { result.append(TimeRange(start: cursor, end: range.start)) }
            cursor = Swift.max(cursor, range.end)
            if cursor >= window.end { break }
        }
        if cursor < window.end { result.append(TimeRange(start: cursor, end: window.end)) }
        return result
    }

    /// Binary search: the index of the first range for which `belongsAfter` holds, given that it is false
    /// for a prefix of the ranges and true for the rest (`count` when it never holds).
    private func boundary(_ belongsAfter: (TimeRange) -> Bool) -> Int {
        var low = 0
        var high = ranges.count
        while low < high {
            let mid = (low + high) / 2
            if belongsAfter(ranges[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }
}

extension TimeRanges: RandomAccessCollection {
    /// The position of the first range.
    public var startIndex: Int { 0 }
    /// The position after the last range.
    public var endIndex: Int { ranges.count }
    /// The range at `position`, in time order.
    public subscript(position: Int) -> TimeRange { ranges[position] }
}

extension TimeRanges: CustomStringConvertible {
    /// The ranges in order, e.g. `[[0.0, 2.5), [3.0, 10.0)]`.
    public var description: String { "[" + ranges.map(\.description).joined(separator: ", ") + "]" }
}
