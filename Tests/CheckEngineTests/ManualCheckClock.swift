import CheckEngine
import Dispatch
import Synchronization

/// A `CheckClock` that moves only when the test moves it (`advance(to:)`), as swift-nio's virtual-time
/// loop: a sleeper wakes when the clock is advanced to its deadline, scheduled work runs on the thread
/// that advances past it, and reading the clock never sees the machine's own time.
final class ManualCheckClock: CheckClock {
    private struct State {
        var time: Double
        var sleepers: [(deadline: Double, alarm: DispatchSemaphore)] = []
        var scheduled: [(deadline: Double, work: @Sendable () -> Void)] = []
        var advances: [Double] = []
    }

    private let state: Mutex<State>
    /// Signalled when a thread goes to sleep on the clock, or when `drive`'s body returns.
    private let activity = DispatchSemaphore(value: 0)

    /// A clock that reads `time` until advanced.
    init(at time: Double = 0) { state = Mutex(State(time: time)) }

    func now() -> Double { state.withLock { $0.time } }

    /// The times the clock was advanced to, in order.
    var advances: [Double] { state.withLock { $0.advances } }

    func sleep(until deadline: Double, alarm: DispatchSemaphore) {
        let due = state.withLock { state in
            if state.time >= deadline { return true }
            state.sleepers.append((deadline, alarm))
            return false
        }
        guard !due else { return }
        activity.signal()
        // No timeout: only `advance(to:)` (or the session's own alarm: a cancel) ends the sleep.
        alarm.wait()
    }

    func schedule(at deadline: Double, _ work: @escaping @Sendable () -> Void) {
        let due = state.withLock { state in
            if state.time >= deadline { return true }
            state.scheduled.append((deadline, work))
            return false
        }
        if due { work() }
    }

    /// Moves the clock to `time`: runs the work scheduled until then and wakes the sleepers due.
    func advance(to time: Double) {
        let (woken, due) = state.withLock { state in
            state.time = max(state.time, time)
            state.advances.append(state.time)
            let woken = state.sleepers.filter { $0.deadline <= state.time }.map(\.alarm)
            state.sleepers.removeAll { $0.deadline <= state.time }
            let due = state.scheduled.filter { $0.deadline <= state.time }.map(\.work)
            state.scheduled.removeAll { $0.deadline <= state.time }
            return (woken, due)
        }
        for work in due { work() }
        for alarm in woken { alarm.signal() }
    }

    /// Runs `body` on a thread of its own and, each time it sleeps on this clock, advances the clock to the
    /// earliest deadline (a sleeper's or scheduled work's); returns what `body` returned, or `nil` when it
    /// neither slept nor returned for `patience` wall seconds (a driver waiting on something else).
    func drive<T: Sendable>(patience: Int = 20, _ body: @escaping @Sendable () -> T) -> T? {
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
                guard let sleeper = state.sleepers.map(\.deadline).min() else { return nil }
                return min(sleeper, state.scheduled.map(\.deadline).min() ?? sleeper)
            }
            if let next { advance(to: next) }
        }
    }
}
