import Synchronization

/// The checks in progress, so Ctrl-C can cancel every one of them from the signal handler's thread.
package final class RunningChecks: Sendable {
    private let sessions = Mutex<[CheckSession]>([])
    private let cancelled = Atomic<Bool>(false)

    /// An empty set.
    package init() {}

    /// Adds a session that started.
    package func add(_ session: CheckSession) {
        sessions.withLock { $0.append(session) }
        if isCancelled { session.cancel() }
    }

    /// Removes a session that finished.
    package func remove(_ session: CheckSession) { sessions.withLock { $0.removeAll { $0 === session } } }

    /// Every session in progress, oldest first.
    package var all: [CheckSession] { sessions.withLock { $0 } }

    /// Cancels every session in progress, and every one added later.
    package func cancelAll() {
        cancelled.store(true, ordering: .releasing)
        for session in all { session.cancel() }
    }

    /// Whether `cancelAll()` was called (Ctrl-C).
    package var isCancelled: Bool { cancelled.load(ordering: .acquiring) }
}
