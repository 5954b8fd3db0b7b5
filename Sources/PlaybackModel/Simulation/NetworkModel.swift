/// The simulated network: a piecewise-constant bandwidth over session (wall) time, outages, and a latency
/// charged once per request.
///
/// The bandwidth at time `t` is decided in this order:
/// 1. inside an outage (`addOutage`), 0;
/// 2. after a `setBandwidth(_:at:)` change, the latest such change's value (it replaces the trace from then
///    on: a script that says "bandwidth 500kbit at 30s" means exactly that);
/// 3. otherwise the base: a constant, or a trace looped from time 0 for as long as the session lasts.
///
/// Latency is the time from sending a request to its first byte; it uses no bandwidth. A request started
/// during a trace step that carries its own latency (Sabre's traces) uses that step's value.
public struct NetworkModel: Sendable, Hashable {
    /// Where the bandwidth comes from when no script change applies.
    public enum Base: Sendable, Hashable {
        /// The same bandwidth all the time, in bits per second.
        case constant(bitsPerSecond: Double)
        /// A measured trace, looped.
        case trace(NetworkTrace)
    }

    /// A scripted change of bandwidth.
    public struct Change: Sendable, Hashable {
        /// Session time of the change, in seconds.
        public var time: Double
        /// The new bandwidth, in bits per second.
        public var bitsPerSecond: Double
    }

    /// A scripted change of per-request latency.
    public struct LatencyChange: Sendable, Hashable {
        /// Session time of the change, in seconds.
        public var time: Double
        /// The new latency, in seconds.
        public var latency: Double
    }

    /// The bandwidth before any scripted change.
    public var base: Base
    /// Default per-request latency, in seconds.
    public var latency: Double
    /// Scripted bandwidth changes, sorted by time (a later change at the same time wins).
    public private(set) var changes: [Change] = []
    /// Outages as `[start, end)` session times, sorted and merged.
    public private(set) var outages: [TimeRange] = []
    /// Scripted latency changes as (session time, seconds), sorted by time.
    public private(set) var latencyChanges: [LatencyChange] = []
    /// No request goes out before this session time: a player's own start before its first media request
    /// (`PlayerProfile.startDelay(hints:network:)`: dash.js loads and parses its manifest first); a request
    /// asked for earlier is sent then and pays its latency from then. 0, the default: none.
    public var requestsHeldUntil = 0.0

    /// A network of constant `bitsPerSecond` with `latency` seconds per request.
    public init(bitsPerSecond: Double, latency: Double = 0) {
        self.base = .constant(bitsPerSecond: bitsPerSecond)
        self.latency = latency
    }

    /// A network replaying `trace` (looped) with `latency` seconds per request where the trace has none.
    public init(trace: NetworkTrace, latency: Double = 0) {
        self.base = .trace(trace)
        self.latency = latency
    }

    /// From session time `time` on, the bandwidth is `bitsPerSecond` (until a later change).
    public mutating func setBandwidth(_ bitsPerSecond: Double, at time: Double) {
        let change = Change(time: time, bitsPerSecond: bitsPerSecond)
        let index = changes.lastIndex { $0.time <= time }.map { $0 + 1 } ?? 0
        changes.insert(change, at: index)
    }

    /// From session time `time` on, requests take `latency` seconds to their first byte (overriding a
    /// trace's own latencies too).
    public mutating func setLatency(_ latency: Double, at time: Double) {
        let index = latencyChanges.lastIndex { $0.time <= time }.map { $0 + 1 } ?? 0
        latencyChanges.insert(LatencyChange(time: time, latency: latency), at: index)
    }

    /// No data flows during `[time, time + duration)`.
    public mutating func addOutage(at time: Double, duration: Double) {
        guard duration > 0 else { return }
        var merged = TimeRange(start: time, end: time + duration)
        var kept: [TimeRange] = []
        for outage in outages {
            if outage.end < merged.start || outage.start > merged.end {
                kept.append(outage)
            } else {
                merged = TimeRange(start: min(merged.start, outage.start), end: max(merged.end, outage.end))
            }
        }
        kept.append(merged)
        kept.sort { $0.start < $1.start }
        outages = kept
    }

    /// The bandwidth at session time `time`, in bits per second.
    public func bandwidth(at time: Double) -> Double { piece(at: time).bitsPerSecond }

    /// The latency of a request sent at session time `time`, in seconds.
    public func requestLatency(at time: Double) -> Double {
        if let index = Self.lastIndex(in: latencyChanges, atOrBefore: time, key: { $0.time }) {
            return latencyChanges[index].latency
        }
        guard case .trace(let trace) = base, time >= 0 else { return latency }
        let offset = time.truncatingRemainder(dividingBy: trace.period)
        return trace.steps[trace.stepIndex(atOffset: offset)].latency ?? latency
    }

    /// The session time at which a transfer of `bytes` whose first byte may flow at `start` has fully
    /// arrived; `infinity` when the bandwidth drops to 0 for good before then.
    public func finishTime(bytes: Int64, start: Double) -> Double {
        var transfer = Transfer(network: self, start: start)
        return transfer.time(whenDelivered: Double(bytes) * 8)
    }

    /// The session times at which the bandwidth changes, from `start` up to `end`, with the new value:
    /// trace steps, scripted changes, outage starts and ends. Used for the event timeline.
    public func bandwidthChanges(from start: Double, to end: Double, limit: Int = 10_000) -> [Change] {
        var result: [Change] = []
        var time = start
        var previous = bandwidth(at: start)
        while result.count < limit {
            let next = piece(at: time).end
            guard next < end, next.isFinite else { break }
            let value = bandwidth(at: next)
            if value != previous { result.append(Change(time: next, bitsPerSecond: value)) }
            previous = value
            time = next
        }
        return result
    }

    /// Whether no data flows at any time from `time` on: no later scripted change lets data through, and
    /// the bandwidth in force (the latest change, else the base constant or every step of the trace) is 0.
    func isSilentForever(from time: Double) -> Bool {
        if changes.contains(where: { $0.time > time && $0.bitsPerSecond > 0 }) { return false }
        if let index = Self.lastIndex(in: changes, atOrBefore: time, key: { $0.time }) {
            return changes[index].bitsPerSecond <= 0
        }
        switch base {
        case .constant(let bitsPerSecond): return bitsPerSecond <= 0
        case .trace(let trace): return trace.isSilent
        }
    }

    /// The constant-bandwidth stretch holding `time`: its bounds and value.
    func piece(at time: Double) -> Piece {
        // An outage overrides everything inside it.
        let outageIndex = Self.lastIndex(in: outages, atOrBefore: time) { $0.start }
        var end = Double.infinity
        if let outageIndex, time < outages[outageIndex].end {
            return Piece(start: outages[outageIndex].start, end: outages[outageIndex].end, bitsPerSecond: 0)
        }
        let nextOutage = (outageIndex.map { $0 + 1 } ?? 0)
        if nextOutage < outages.count { end = outages[nextOutage].start }
        let previousOutageEnd = outageIndex.map { outages[$0].end } ?? -Double.infinity

        let changeIndex = Self.lastIndex(in: changes, atOrBefore: time) { $0.time }
        let nextChange = (changeIndex.map { $0 + 1 } ?? 0)
        if nextChange < changes.count { end = min(end, changes[nextChange].time) }
        if let changeIndex {
            let start = max(changes[changeIndex].time, previousOutageEnd)
            return Piece(start: start, end: end, bitsPerSecond: changes[changeIndex].bitsPerSecond)
        }
        switch base {
        case .constant(let bitsPerSecond):
            return Piece(start: max(-Double.infinity, previousOutageEnd), end: end, bitsPerSecond: bitsPerSecond)
        case .trace(let trace):
            let clamped = max(time, 0)
            let loops = Rounding.down(clamped / trace.period)
            var offset = clamped - loops * trace.period
            if offset >= trace.period { offset = 0 }
            let index = trace.stepIndex(atOffset: offset)
            let stepStart = loops * trace.period + trace.starts[index]
            let stepEnd =
                index + 1 < trace.steps.count
                ? loops * trace.period + trace.starts[index + 1] : (loops + 1) * trace.period
            // Guard against rounding leaving `time` just past the computed end.
            let safeEnd = stepEnd > time ? stepEnd : time.nextUp
            return Piece(
                start: max(stepStart, previousOutageEnd), end: min(end, safeEnd),
                bitsPerSecond: trace.steps[index].bitsPerSecond)
        }
    }

    private static func lastIndex<T>(in array: [T], atOrBefore time: Double, key: (T) -> Double) -> Int? {
        var low = 0
        var high = array.count
        while low < high {
            let middle = (low + high) / 2
            if key(array[middle]) <= time { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }

    /// One network held by reference, for transfers made one after another on it.
    final class Shared: Sendable {
        let network: NetworkModel

        init(_ network: NetworkModel) {
            self.network = network
        }
    }

    /// A constant-bandwidth stretch `[start, end)` of session time.
    struct Piece: Sendable, Hashable {
        var start: Double
        var end: Double
        var bitsPerSecond: Double
    }

    /// One request's data flow: answers "when have N bits arrived" for increasing N in amortized O(1),
    /// computing within each constant stretch from the stretch's start so that a constant network gives
    /// exactly `start + bits / bandwidth` with no accumulated rounding.
    public struct Transfer: Sendable {
        // Behind one reference: a transfer is copied several times per packet in a long simulation, and
        // the model's arrays would each be retained on every copy.
        private let shared: Shared
        private var network: NetworkModel { shared.network }
        /// Start of the current stretch as seen by this transfer, and the bits delivered by then.
        private var anchorTime: Double
        private var anchorBits: Double = 0
        private var piece: Piece
        /// Transfers sharing the link with this one, itself included: each gets `1 / share` of the bandwidth
        /// (`SimulationDownloader.share(_:at:)`); 1 alone on it.
        private(set) var share: Double = 1

        /// A transfer whose first byte may flow at session time `start` (after the request's latency).
        public init(network: NetworkModel, start: Double) {
            self.init(shared: Shared(network), start: start)
        }

        /// A transfer on a network many transfers share.
        init(shared: Shared, start: Double) {
            self.shared = shared
            self.anchorTime = start
            self.piece = shared.network.piece(at: start)
        }

        /// The bits delivered (counted from the transfer's start) by session time `time`, which must not be
        /// before the last time this transfer answered about (it walks forward from there).
        public func bits(deliveredBy time: Double) -> Double {
            // Within the current piece (almost always): the same sum as the walk below's first step, with no
            // copy of the transfer (a retain and a release of the network).
            if time <= piece.end || !piece.end.isFinite {
                return anchorBits + Swift.max(0, time - anchorTime) * (piece.bitsPerSecond / share)
            }
            var copy = self
            while true {
                if time <= copy.piece.end || !copy.piece.end.isFinite {
                    return copy.anchorBits + Swift.max(0, time - copy.anchorTime) * (copy.piece.bitsPerSecond / share)
                }
                copy.anchorBits += (copy.piece.end - copy.anchorTime) * (copy.piece.bitsPerSecond / share)
                copy.anchorTime = copy.piece.end
                copy.piece = copy.network.piece(at: copy.anchorTime)
            }
        }

        /// The corners of this flow's arrival curve from session time `from` (not before its anchor) to `to`:
        /// the bits in (counted from the transfer's start) at `from`, at every change of the link's rate
        /// between them, and at `to`; linear between two corners. At most `limit` corners: past them the
        /// last one is `to`'s.
        func corners(from: Double, to: Double, limit: Int = 4096) -> [(time: Double, bits: Double)] {
            var points = [(time: from, bits: bits(deliveredBy: from))]
            var time = from
            var copy = self
            while points.count < limit - 1 {
                let end = network.piece(at: time).end
                guard end < to, end.isFinite, end > time else { break }
                copy = copy.reshared(at: end, share: share)
                points.append((end, copy.anchorBits))
                time = end
            }
            if to > from { points.append((to, copy.bits(deliveredBy: to))) }
            return points
        }

        /// The same flow from session time `time` on (not before its latest answer) with `share` transfers
        /// on the link: the bits delivered by `time` are kept, the rate after it is the new share's.
        func reshared(at time: Double, share: Double) -> Transfer {
            var copy = self
            copy.anchorBits = bits(deliveredBy: time)
            copy.anchorTime = Swift.max(time, anchorTime)
            copy.piece = network.piece(at: copy.anchorTime)
            copy.share = share
            return copy
        }

        /// The session time when `bits` (counted from the transfer's start) have arrived. Calls must ask for
        /// non-decreasing amounts. `infinity` when that never happens.
        public mutating func time(whenDelivered bits: Double) -> Double {
            while true {
                if piece.bitsPerSecond > 0 {
                    let finish = anchorTime + (bits - anchorBits) / (piece.bitsPerSecond / share)
                    if finish <= piece.end { return max(finish, anchorTime) }
                } else if network.isSilentForever(from: anchorTime) {
                    // A looped all-zero trace has finite steps forever: walking them would never end.
                    return .infinity
                }
                guard piece.end.isFinite else { return .infinity }
                anchorBits += (piece.end - anchorTime) * (piece.bitsPerSecond / share)
                anchorTime = piece.end
                piece = network.piece(at: anchorTime)
            }
        }
    }
}
