import Dispatch
import Foundation
import Synchronization

/// The one way bufprobe runs blocking work (libavformat calls, a simulation run ahead of its reading, the
/// LL-HLS client, `--all-variants`' workers) on a thread of its own, so it never occupies one of the few
/// threads of Swift's cooperative pool: several checks in parallel on a 2-core machine would otherwise
/// starve each other and the live line. `start` returns a handle to join (blocking) or await; `running`
/// counts the threads started here that have not returned, so a test sees that a cancel left none behind.
package enum BlockingThread {
    private static let live = Atomic<Int>(0)

    private static let nameKey = "bufprobe.BlockingThread.name"

    /// The name the calling thread was started with, when `start` started it.
    package static var currentName: String? { Thread.current.threadDictionary[nameKey] as? String }

    /// Threads started by `start` (or `run`) whose work has not returned yet.
    package static var running: Int { live.load(ordering: .acquiring) }

    /// Starts `work` on a new thread named `name` (with `stackSize` bytes of stack when given) and returns
    /// its handle.
    @discardableResult
    package static func start<Value: Sendable>(
        name: String, stackSize: Int? = nil, _ work: @escaping @Sendable () -> Value
    ) -> Handle<Value> {
        let handle = Handle<Value>()
        live.add(1, ordering: .acquiringAndReleasing)
        let thread = Thread {
            // Linux keeps at most 15 bytes of a thread's own name, and Foundation may not pass it on.
            Thread.current.threadDictionary[nameKey] = name
            let value = work()
            live.subtract(1, ordering: .acquiringAndReleasing)
            handle.finish(value)
        }
        thread.name = name
        if let stackSize { thread.stackSize = stackSize }
        thread.start()
        return handle
    }

    /// Runs `work` on a new thread named `name` and returns its result, without blocking the caller's thread.
    package static func run<Value: Sendable>(name: String, _ work: @escaping @Sendable () -> Value) async -> Value {
        await start(name: name, work).value
    }

    /// A thread started by `start`: its result, once its work returned.
    package final class Handle<Value: Sendable>: Sendable {
        private struct State {
            var value: Value?
            var awaiting: [CheckedContinuation<Value, Never>] = []
        }

        private let state = Mutex(State())
        /// Signalled once the value is in; each `join` passes the signal on to the next.
        private let done = DispatchSemaphore(value: 0)

        fileprivate init() {}

        fileprivate func finish(_ value: Value) {
            let awaiting = state.withLock { state in
                state.value = value
                defer { state.awaiting = [] }
                return state.awaiting
            }
            done.signal()
            for continuation in awaiting { continuation.resume(returning: value) }
        }

        /// Blocks until the work returned; its result.
        package func join() -> Value {
            while true {
                if let value = state.withLock({ $0.value }) { return value }
                done.wait()
                done.signal()
            }
        }

        /// The work's result, once it returned, awaited without blocking a thread.
        package var value: Value {
            get async {
                await withCheckedContinuation { continuation in
                    let value = state.withLock { state in
                        if state.value == nil { state.awaiting.append(continuation) }
                        return state.value
                    }
                    if let value { continuation.resume(returning: value) }
                }
            }
        }
    }
}
