/// Seconds on a monotonic clock since the first call: the live line's default `now`.
public enum MonotonicClock {
    private static let origin = ContinuousClock.now

    /// Seconds since the origin; never goes backwards.
    @Sendable public static func seconds() -> Double {
        let elapsed = origin.duration(to: .now).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18
    }
}
