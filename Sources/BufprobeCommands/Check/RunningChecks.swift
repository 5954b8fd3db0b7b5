import Synchronization

/// The checks in progress, so Ctrl-C can cancel every one of them from the signal handler's thread.
package final class RunningChecks: Sendable {
    private let sessions = Mutex<[CheckSession]>([])

    /// An empty set.
    package init() {}

    /// Adds a session that started.
    package func add(_ session: CheckSession) { sessions.withLock { $0.append(session) } }

    /// Removes a session that finished.
    package func remove(_ session: CheckSession) { sessions.withLock { $0.removeAll { $0 === session } } }

    /// Every session in progress, oldest first.
    package var all: [CheckSession] { sessions.withLock { $0 } }

    /// Cancels every session in progress.
    package func cancelAll() {
        for session in all { session.cancel() }
    }
}
