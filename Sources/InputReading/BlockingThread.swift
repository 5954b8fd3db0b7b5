import Foundation

/// Runs blocking work (libavformat calls) on a thread of its own, so it never occupies one of the few
/// threads of Swift's cooperative pool: several checks in parallel on a 2-core machine would otherwise
/// starve each other and the live line.
package enum BlockingThread {
    /// Runs `work` on a new thread named `name` and returns its result.
    package static func run<T: Sendable>(name: String, _ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: work())
            }
            thread.name = name
            thread.start()
        }
    }
}
