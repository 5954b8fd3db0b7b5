internal import CFFmpeg
import Foundation
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
        /// The input kept requesting the same playlist (a master that lists itself, two that list each
        /// other): the URL.
        case requestLoop(String)
        /// A playlist was larger than `ResourceLimits.playlistBytes` (a body that never ends): the URL.
        case playlistTooLarge(String)
        /// The timeout tripped while a playlist's body was still arriving (a body that never ends, sent
        /// slower than `ResourceLimits.playlistBytes` in the timeout): its URL and the bytes it had sent.
        case playlistUnfinished(String, bytes: Int64)
    }

    /// The longest a single open or read may block, or `nil` for no limit.
    public let timeout: Duration?
    /// What its deadlines, its pace and the resource gate's loop detection read: its parent's unless given.
    package let clock: any IOClock
    /// Raised by `cancel()` and `stop(_:)` (and by the parent's): ends every wait on `clock` made for this
    /// input at once (the pace, the check's waits, the LL-HLS client's).
    package let alarm: Alarm
    private let cancelled = Atomic<Bool>(false)
    private let timedOut = Atomic<Bool>(false)
    // Nanoseconds since `origin`; Int64.max means "not armed", `pendingStart` "armed, the clock starts at
    // the first poll".
    private let deadline = Atomic<Int64>(.max)
    private static let pendingStart = Int64.max - 1

    // A resource the input leads to (a variant playlist, a segment) may block for part of the timeout
    // only; Int64.max means "no such call running".
    private let nestedDeadline = Atomic<Int64>(.max)
    private let nestedTimedOut = Atomic<Bool>(false)
    // Set with `stopReason`; read on every poll without the lock.
    private let stopped = Atomic<Bool>(false)
    private let stopReason = Mutex<Reason?>(nil)
    private let skips = Mutex<[SkippedResource]>([])
    // Request tokens per origin (`pace`).
    private let buckets = Mutex<[String: (tokens: Double, time: Double)]>([:])
    private let parent: Interrupter?
    // The interrupter whose request tokens this one spends (`pace`), when it is not its own.
    private let pacer: Interrupter?

    /// The protocols resources read on behalf of the input may use (`nil`: FFmpeg's defaults).
    public let whitelist: ProtocolWhitelist?
    /// Which URLs may be requested for the input (`nil`: any the whitelist allows).
    public let policy: RequestPolicy?
    // Requests the policy refused, by reason (every refusal, not only the first of each URL).
    private let refusals = Mutex<[RequestPolicy.Reason: Int]>([:])

    /// Creates an interrupter that aborts any call blocking for longer than `timeout`, and every call
    /// once `parent` (one interrupter for a whole run, which Ctrl-C cancels) is cancelled. With `input`,
    /// the resources read for it follow `ProtocolWhitelist.forInput(input)`.
    ///
    /// With `sharingPaceWith`, requests made through this interrupter spend the tokens of that one (`pace`):
    /// several readers working for one input at once (its variants checked side by side) still keep to one
    /// pace per origin.
    ///
    /// With an active `policy`, every URL requested for a remote input, the input and its redirects
    /// included, is checked against it before it is requested (`RequestPolicy`).
    public convenience init(
        timeout: Duration?, parent: Interrupter? = nil, input: String? = nil, sharingPaceWith pacer: Interrupter? = nil,
        policy: RequestPolicy? = nil
    ) {
        self.init(timeout: timeout, parent: parent, input: input, sharingPaceWith: pacer, policy: policy, clock: nil)
    }

    /// `init(timeout:parent:input:sharingPaceWith:policy:)` on `clock` (`nil`: the parent's, else the
    /// system's `MonotonicIOClock`).
    package init(
        timeout: Duration?, parent: Interrupter? = nil, input: String? = nil, sharingPaceWith pacer: Interrupter? = nil,
        policy: RequestPolicy? = nil, clock: (any IOClock)?
    ) {
        self.timeout = timeout
        self.clock = clock ?? parent?.clock ?? MonotonicIOClock()
        self.alarm = Alarm(parent: parent?.alarm)
        self.parent = parent
        self.pacer = pacer
        self.whitelist = input.flatMap(ProtocolWhitelist.forInput)
        self.policy = policy.flatMap { $0.isActive ? $0 : nil }
    }

    /// Requests refused by `policy` so far, by reason.
    public var refusedRequests: [RequestPolicy.Reason: Int] { refusals.withLock { $0 } }

    /// Records a request `policy` refused: a skipped resource (the warning) and the count, on the
    /// interrupter whose pace this one spends (the check's, for its `--all-variants` requests).
    public func refuse(_ url: String, reason: RequestPolicy.Reason, why: String) {
        let owner = pacer ?? self
        owner.refusals.withLock { $0[reason, default: 0] += 1 }
        owner.skip(SkippedResource(url: url, why: why, kind: .refused))
        if owner !== self { skip(SkippedResource(url: url, why: why, kind: .refused)) }
    }

    /// Resources the input led to that were refused or skipped (a protocol off the whitelist, a variant
    /// that sent nothing), oldest first, for the report's warnings.
    public var skipped: [SkippedResource] { skips.withLock { $0 } }

    /// Why a resource that used up its share of `timeout` was skipped: `sent nothing within 5 s (half of
    /// --timeout)`.
    static func silentReason(timeout: Duration) -> String {
        let seconds = (Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18) / 2
        return "sent nothing within \(String(format: "%g", seconds)) s (half of --timeout)"
    }

    /// Records a skipped resource (each one once, at most 64).
    func skip(_ resource: SkippedResource) {
        skips.withLock { skips in
            if !skips.contains(resource), skips.count < 64 { skips.append(resource) }
        }
    }

    /// Stops every call for good, for `reason` (the first reason wins).
    func stop(_ reason: Reason) {
        stopReason.withLock { if $0 == nil { $0 = reason } }
        stopped.store(true, ordering: .releasing)
        alarm.raise()
    }

    /// Runs `body` (opening a resource the input leads to) with at most half the timeout to answer, so
    /// that one silent resource cannot use up the time of the others; returns whether that limit
    /// tripped. With `whole`, the limit is the whole timeout: what FFmpeg's own open of the input waits
    /// (`ResourceGate` opens the input without the half), for a read made in its place.
    func withNestedDeadline(whole: Bool = false, _ body: () -> Void) -> Bool {
        guard let timeout else {
            body()
            return false
        }
        nestedTimedOut.store(false, ordering: .releasing)
        nestedDeadline.store(elapsedNanoseconds() + Self.nanoseconds(timeout) / (whole ? 1 : 2), ordering: .releasing)
        body()
        nestedDeadline.store(.max, ordering: .releasing)
        return nestedTimedOut.exchange(false, ordering: .acquiringAndReleasing)
    }

    /// Asks every blocking call to stop as soon as FFmpeg next polls. Safe from any thread.
    public func cancel() {
        cancelled.store(true, ordering: .releasing)
        alarm.raise()
    }

    private var isCancelled: Bool {
        cancelled.load(ordering: .acquiring) || (parent?.isCancelled ?? false)
    }

    /// Why the last call was interrupted, or `nil` if nothing was.
    public var reason: Reason? {
        if isCancelled { return .cancelled }
        if stopped.load(ordering: .acquiring), let reason = stopReason.withLock({ $0 }) { return reason }
        if timedOut.load(ordering: .acquiring) { return .timeout }
        return nil
    }

    /// Waits until a request to `url`'s origin fits `ResourceLimits.requestsPerSecond` after a burst of
    /// `ResourceLimits.requestBurst`, for every request made on behalf of this input (FFmpeg's and
    /// bufprobe's own); `false` when interrupted while waiting.
    func pace(_ url: String) -> Bool {
        let origin = Self.origin(of: url)
        let owner = pacer ?? self
        while true {
            let wait = owner.takeToken(origin)
            if wait <= 0 { return true }
            if shouldAbort() { return false }
            // A cancel or a stop raises the alarm: the wait ends at once.
            clock.sleep(until: clock.now() + wait, alarm: alarm)
        }
    }

    /// Takes a request token for `origin` from this interrupter's buckets: 0 when one was taken, else the
    /// seconds until one is due.
    private func takeToken(_ origin: String) -> Double {
        buckets.withLock { buckets in
            let now = clock.now()
            var bucket = buckets[origin] ?? (ResourceLimits.requestBurst, now)
            let refill = max(0, now - bucket.time) * ResourceLimits.requestsPerSecond
            bucket.tokens = min(ResourceLimits.requestBurst, bucket.tokens + refill)
            bucket.time = now
            defer { buckets[origin] = bucket }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return 0
            }
            return (1 - bucket.tokens) / ResourceLimits.requestsPerSecond
        }
    }

    /// `scheme://host:port` of `url` (lowercased), the unit of pacing.
    static func origin(of url: String) -> String {
        var rest = Substring(url.lowercased())
        for prefix in ["crypto+", "crypto:"] where rest.hasPrefix(prefix) { rest = rest.dropFirst(prefix.count) }
        guard let scheme = rest.range(of: "://") else { return String(rest.prefix { $0 != ":" }) }
        let authority = rest[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return String(rest[..<scheme.upperBound] + authority)
    }

    /// Starts the timeout for the next blocking call. It counts from the call's first poll: FFmpeg polls
    /// before it waits for data, so the deadline is the same for a call that blocks, and a read the
    /// demuxer answers from what it already holds (most packets of a file) reads no clock at all.
    func arm() {
        guard timeout != nil else { return }
        deadline.store(Self.pendingStart, ordering: .releasing)
    }

    /// Stops the timeout once the call returned.
    func disarm() {
        // Without a timeout nothing was armed; this runs once per packet, so skip the store.
        guard timeout != nil else { return }
        deadline.store(.max, ordering: .releasing)
    }

    /// Called by FFmpeg's interrupt callback: `true` means "abort now".
    func shouldAbort() -> Bool {
        if isCancelled || timedOut.load(ordering: .acquiring) || stopped.load(ordering: .acquiring) { return true }
        var limit = deadline.load(ordering: .acquiring)
        let nested = nestedDeadline.load(ordering: .acquiring)
        guard limit != .max || nested != .max else { return false }
        let now = elapsedNanoseconds()
        if limit == Self.pendingStart, let timeout {
            // The first poll of an armed call starts its clock (unless a disarm came first).
            let start = now + Self.nanoseconds(timeout)
            let (exchanged, current) = deadline.compareExchange(
                expected: Self.pendingStart, desired: start, ordering: .acquiringAndReleasing)
            limit = exchanged ? start : current
        }
        if now > limit {
            timedOut.store(true, ordering: .releasing)
            return true
        }
        if now > nested {
            nestedTimedOut.store(true, ordering: .releasing)
            return true
        }
        return false
    }

    /// `clock`'s reading in whole nanoseconds (the deadlines are atomics).
    private func elapsedNanoseconds() -> Int64 { Int64(exactly: (clock.now() * 1e9).rounded(.down)) ?? .max - 2 }

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
