package import Dispatch

/// The wall clock of a real check: `ContinuousClock` (monotonic, counting while the machine sleeps) for
/// readings, Dispatch's timers for sleeping and scheduling.
package struct MonotonicCheckClock: CheckClock {
    private let origin = ContinuousClock.now

    /// A clock whose origin is now.
    package init() {}

    /// Seconds since the clock was made.
    package func now() -> Double { (ContinuousClock.now - origin).seconds }

    /// Waits on `alarm` with a timeout at `deadline` (at most an hour at a time).
    package func sleep(until deadline: Double, alarm: DispatchSemaphore) {
        let left = deadline - now()
        guard left > 0 else { return }
        _ = alarm.wait(timeout: .now() + .nanoseconds(Self.nanoseconds(left)))
    }

    /// Runs `work` on a global queue at `deadline`.
    package func schedule(at deadline: Double, _ work: @escaping @Sendable () -> Void) {
        // Not capped like `sleep`: a sample limit hours away fires once, at its time.
        DispatchQueue.global().asyncAfter(deadline: .now() + max(0, deadline - now())) { work() }
    }

    /// `seconds` (not negative) as whole nanoseconds, at most an hour.
    private static func nanoseconds(_ seconds: Double) -> Int {
        Int(exactly: (min(seconds, 3600) * 1e9).rounded(.up)) ?? 1_000_000
    }
}
