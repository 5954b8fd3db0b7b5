internal import CFFmpeg
import Synchronization

/// Decides when a blocking libavformat call must give up: a no-progress timeout (armed before each open
/// or read, cleared when it returns what was asked for) and a cancellation that any thread may request
/// (Ctrl-C). Installed as the input's `AVIOInterruptCB`, which FFmpeg polls while it waits on the network.
///
/// A timeout is final: once it tripped, every later poll aborts too. FFmpeg hands back the packets it
/// had buffered when a read is interrupted (the MPEG-TS parser flushes at the end of a segment), and
/// re-arming for the next read would give a stalled stream a second full timeout.
public final class Interrupter: Sendable {
    /// Why a call was interrupted.
    public enum Reason: Sendable, Hashable {
        /// No data for longer than the timeout.
        case timeout
        /// `cancel()` was called.
        case cancelled
    }

    /// The longest a single open or read may block, or `nil` for no limit.
    public let timeout: Duration?
    private let origin = ContinuousClock.now
    private let cancelled = Atomic<Bool>(false)
    private let timedOut = Atomic<Bool>(false)
    // Nanoseconds since `origin`; Int64.max means "not armed".
    private let deadline = Atomic<Int64>(.max)

    private let parent: Interrupter?

    /// Creates an interrupter that aborts any call blocking for longer than `timeout`, and every call
    /// once `parent` (one interrupter for a whole run, which Ctrl-C cancels) is cancelled.
    public init(timeout: Duration?, parent: Interrupter? = nil) {
        self.timeout = timeout
        self.parent = parent
    }

    /// Asks every blocking call to stop as soon as FFmpeg next polls. Safe from any thread.
    public func cancel() { cancelled.store(true, ordering: .releasing) }

    private var isCancelled: Bool {
        cancelled.load(ordering: .acquiring) || (parent?.isCancelled ?? false)
    }

    /// Why the last call was interrupted, or `nil` if nothing was.
    public var reason: Reason? {
        if isCancelled { return .cancelled }
        if timedOut.load(ordering: .acquiring) { return .timeout }
        return nil
    }

    /// Starts the timeout for the next blocking call.
    func arm() {
        guard let timeout else { return }
        deadline.store(elapsedNanoseconds() + Self.nanoseconds(timeout), ordering: .releasing)
    }

    /// Stops the timeout once the call returned.
    func disarm() {
        // Without a timeout nothing was armed; this runs once per packet, so skip the store.
        guard timeout != nil else { return }
        deadline.store(.max, ordering: .releasing)
    }

    /// Called by FFmpeg's interrupt callback: `true` means "abort now".
    func shouldAbort() -> Bool {
        if isCancelled || timedOut.load(ordering: .acquiring) { return true }
        let limit = deadline.load(ordering: .acquiring)
        if limit != .max, elapsedNanoseconds() > limit {
            timedOut.store(true, ordering: .releasing)
            return true
        }
        return false
    }

    private func elapsedNanoseconds() -> Int64 { Self.nanoseconds(ContinuousClock.now - origin) }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
    }
}

extension Interrupter {
    /// The `AVIOInterruptCB` that asks this interrupter. It borrows `self` unretained: whoever installs
    /// it keeps the interrupter alive as long as the FFmpeg context that polls it.
    var avioCallback: AVIOInterruptCB {
        AVIOInterruptCB(callback: interruptCallback, opaque: Unmanaged.passUnretained(self).toOpaque())
    }
}

// FFmpeg polls this while it blocks; non-zero aborts the call with AVERROR_EXIT.
private let interruptCallback: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { opaque in
    guard let opaque else { return 0 }
    return Unmanaged<Interrupter>.fromOpaque(opaque).takeUnretainedValue().shouldAbort() ? 1 : 0
}
