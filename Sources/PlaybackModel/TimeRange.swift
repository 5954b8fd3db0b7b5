/// A half-open span of media time `[start, end)` in seconds, as AVFoundation's `CMTimeRange` but in plain
/// `Double`s. Negative times are valid (encoder priming).
public struct TimeRange: Sendable, Hashable {
    /// The first instant inside the range, in seconds.
    public var start: Double
    /// The first instant after the range, in seconds; not itself inside the range.
    public var end: Double

    /// Creates the range `[start, end)`. A range whose `end` is not after its `start` is empty.
    public init(start: Double, end: Double) {
        self.start = start
        self.end = end
    }

    /// Creates the range `[start, start + duration)`.
    public init(start: Double, duration: Double) {
        self.init(start: start, end: start + duration)
    }

    /// The length of the range in seconds; 0 for an empty or inverted range.
    public var duration: Double { end > start ? end - start : 0 }

    /// Whether the range holds no instant (its end is not after its start, or a bound is NaN).
    public var isEmpty: Bool { !(end > start) }

    /// Whether `t` lies in `[start, end)`.
    public func contains(_ t: Double) -> Bool { start <= t && t < end }

    /// The part of both ranges, or `nil` when they share no instant.
    public func clamped(to other: TimeRange) -> TimeRange? {
        let result = TimeRange(start: max(start, other.start), end: min(end, other.end))
        return result.isEmpty ? nil : result
    }
}

extension TimeRange: CustomStringConvertible {
    /// `[start, end)` with the bounds in seconds.
    public var description: String { "[\(start), \(end))" }
}
