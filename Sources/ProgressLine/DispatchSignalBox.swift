import Dispatch

// A Dispatch source is thread-safe but not marked Sendable; the signal handlers only touch theirs
// under a lock.
struct DispatchSignalBox: @unchecked Sendable {
    let source: any DispatchSourceSignal
}
