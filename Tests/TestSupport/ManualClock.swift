import Dispatch
import Foundation
package import MediaIO
import Synchronization

/// An `IOClock` (a check's `CheckClock`) that moves only when the test moves it (`advance(to:)`), as swift-nio's virtual-time
/// loop: a sleeper wakes when the clock is advanced to its deadline (or its alarm is raised), scheduled work
/// runs on the thread that advances past it, and reading the clock never sees the machine's own time.
package final class ManualClock: IOClock {
    private struct Sleeper {
        var token: Int
        var deadline: Double
        var wake: DispatchSemaphore
        var thread: String
        /// Once raised, the sleeper is waking: no longer asleep, and no deadline to drive the clock to.
        var alarm: Alarm
    }

    private struct State {
        var time: Double
        var sleepers: [Sleeper] = []
        var scheduled: [(deadline: Double, work: @Sendable () -> Void)] = []
        package var advances: [Double] = []
        var tokens = 0
    }

    private let state: Mutex<State>
    /// Signalled when a thread goes to sleep on the clock, or when `drive`'s body returns.
    private let activity = DispatchSemaphore(value: 0)
    /// The wall clock at the clock's 0 (`unixTime()`).
    private let unixOrigin: Double

    /// A clock that reads `time` until advanced, at `unixOrigin + time` on the wall clock.
    package init(at time: Double = 0, unixOrigin: Double = 1_800_000_000) {
        state = Mutex(State(time: time))
        self.unixOrigin = unixOrigin
    }

    package func now() -> Double { state.withLock { $0.time } }

    package func unixTime() -> Double { unixOrigin + now() }

    /// The times the clock was advanced to, in order.
    package var advances: [Double] { state.withLock { $0.advances } }

    /// The names of the threads sleeping on the clock now, one per sleep (`BlockingThread`'s name, else the
    /// system's, else "").
    package var sleeping: [String] { state.withLock { $0.sleepers.filter { !$0.alarm.isRaised }.map(\.thread) } }

    package func sleep(until deadline: Double, alarm: Alarm) {
        let wake = DispatchSemaphore(value: 0)
        let thread = BlockingThread.currentName ?? Thread.current.name ?? ""
        let token: Int? = state.withLock { state in
            if state.time >= deadline { return nil }
            state.tokens += 1
            state.sleepers.append(Sleeper(token: state.tokens, deadline: deadline, wake: wake, thread: thread, alarm: alarm))
            return state.tokens
        }
        guard let token else { return }
        activity.signal()
        // No timeout: only `advance(to:)` or the alarm (a cancel, the end of the sample) ends the sleep.
        alarm.wait(wakingOn: wake)
        state.withLock { $0.sleepers.removeAll { $0.token == token } }
    }

    package func schedule(at deadline: Double, _ work: @escaping @Sendable () -> Void) {
        let due = state.withLock { state in
            if state.time >= deadline { return true }
            state.scheduled.append((deadline, work))
            return false
        }
        if due { work() }
    }

    /// Moves the clock to `time`: runs the work scheduled until then and wakes the sleepers due.
    package func advance(to time: Double) {
        let (woken, due) = state.withLock { state in
            state.time = max(state.time, time)
            state.advances.append(state.time)
            let woken = state.sleepers.filter { $0.deadline <= state.time }.map(\.wake)
            state.sleepers.removeAll { $0.deadline <= state.time }
            let due = state.scheduled.filter { $0.deadline <= state.time }.map(\.work)
            state.scheduled.removeAll { $0.deadline <= state.time }
            return (woken, due)
        }
        for work in due { work() }
        for wake in woken { wake.signal() }
    }

    /// Runs `body` on a thread of its own and, each time it sleeps on this clock, advances the clock to the
    /// earliest deadline (a sleeper's or scheduled work's); returns what `body` returned, or `nil` when it
    /// neither slept nor returned for `patience` wall seconds (a driver waiting on something else).
    package func drive<T: Sendable>(patience: Int = 20, _ body: @escaping @Sendable () -> T) -> T? {
        let result = Mutex<T?>(nil)
        DispatchQueue.global().async {
            let value = body()
            result.withLock { $0 = value }
            self.activity.signal()
        }
        while true {
            guard activity.wait(timeout: .now() + .seconds(patience)) == .success else { return nil }
            if let value = result.withLock({ $0 }) { return value }
            let next: Double? = state.withLock { state in
                // A sleeper whose alarm was raised is waking, not waiting for its deadline.
                guard let sleeper = state.sleepers.filter({ !$0.alarm.isRaised }).map(\.deadline).min() else { return nil }
                return min(sleeper, state.scheduled.map(\.deadline).min() ?? sleeper)
            }
            if let next { advance(to: next) }
        }
    }
}
