/// How a caller times the requests an input makes (`MediaInput`'s `requestTiming`): on the caller's own
/// clock, so the times line up with everything else it measures (a check's clock may be a test's).
public struct RequestTiming: Sendable {
    /// The caller's clock, seconds from an origin of its own.
    public var now: @Sendable () -> Double
    /// Receives when each successful open began and the seconds it took, both on `now`'s clock.
    public var opened: @Sendable (_ started: Double, _ seconds: Double) -> Void

    /// Timing on `now`, reported to `opened`.
    public init(now: @escaping @Sendable () -> Double, opened: @escaping @Sendable (_ started: Double, _ seconds: Double) -> Void) {
        self.now = now
        self.opened = opened
    }
}
