import Dispatch
import Foundation

/// The clock of a real run (`IOClock`): `ContinuousClock` (monotonic, counting while the machine sleeps)
/// for readings, Dispatch's timers for sleeping and scheduling, `Date` for the wall clock. The only place
/// that reads the system's time for reading media.
package struct MonotonicIOClock: IOClock {
    private let origin = ContinuousClock.now

    /// A clock whose origin is now.
    package init() {}

    /// Seconds since the clock was made.
    package func now() -> Double {
        let elapsed = (ContinuousClock.now - origin).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }

    /// Waits on `alarm` with a timeout at `deadline` (at most an hour at a time).
    package func sleep(until deadline: Double, alarm: Alarm) {
        let left = deadline - now()
        guard left > 0 else { return }
        alarm.wait(deadline: .now() + .nanoseconds(Self.nanoseconds(left)))
    }

    /// Runs `work` on a global queue at `deadline`.
    package func schedule(at deadline: Double, _ work: @escaping @Sendable () -> Void) {
        // Not capped like `sleep`: a sample limit hours away fires once, at its time.
        DispatchQueue.global().asyncAfter(deadline: .now() + max(0, deadline - now())) { work() }
    }

    /// This machine's wall clock.
    package func unixTime() -> Double { Date().timeIntervalSince1970 }

    /// `seconds` (not negative) as whole nanoseconds, at most an hour.
    private static func nanoseconds(_ seconds: Double) -> Int {
        Int(exactly: (min(seconds, 3600) * 1e9).rounded(.up)) ?? 1_000_000
    }
}
