package import Dispatch
import Synchronization

/// What ends waits on an `IOClock` early: once raised, every wait on it, or on an alarm below it, ends at
/// once, and every later one returns before it starts. It is a level, not a signal: any number of threads
/// waiting at once all wake (the reading thread, the LL-HLS client, a paced request), and a raise that came
/// first is never lost. Each `Interrupter` has one, raised by its `cancel()` and by its parent's.
package final class Alarm: Sendable {
    private struct State {
        var raised = false
        /// The waits in progress, by token: each is ended by signalling its semaphore.
        var waiting: [UInt64: DispatchSemaphore] = [:]
    }

    private let state = Mutex(State())
    /// Raising it raises this one too (seen by `isRaised` and by every wait).
    private let parent: Alarm?
    private static let tokens = Atomic<UInt64>(0)

    /// An alarm not raised yet, raised with `parent` when given.
    package init(parent: Alarm? = nil) { self.parent = parent }

    /// Whether this alarm or one above it was raised.
    package var isRaised: Bool { state.withLock { $0.raised } || (parent?.isRaised ?? false) }

    /// Raises the alarm for good: every wait on it or below it ends now. Safe from any thread, and to repeat.
    package func raise() {
        let woken = state.withLock { state in
            state.raised = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for semaphore in woken { semaphore.signal() }
    }

    /// Blocks until the alarm (or one above it) is raised, `wake` is signalled (a clock's own ending of the
    /// wait) or `deadline` passes, whichever comes first; at once when it was raised already.
    package func wait(wakingOn wake: DispatchSemaphore = DispatchSemaphore(value: 0), deadline: DispatchTime = .distantFuture) {
        let token = Self.tokens.wrappingAdd(1, ordering: .relaxed).newValue
        var chain: [Alarm] = []
        var next: Alarm? = self
        var raised = false
        while let alarm = next, !raised {
            raised = alarm.state.withLock { state in
                if state.raised { return true }
                state.waiting[token] = wake
                return false
            }
            chain.append(alarm)
            next = alarm.parent
        }
        if !raised { _ = wake.wait(timeout: deadline) }
        for alarm in chain { alarm.state.withLock { _ = $0.waiting.removeValue(forKey: token) } }
    }
}
