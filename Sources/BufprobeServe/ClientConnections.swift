import Prometheus
import Synchronization

/// The connections `serve` holds open, and who may open one more: at most `limits.perClient` from one
/// client address and `limits.total` in all. A connection is *waiting* while no request of it is in
/// progress (just accepted, still sending its head, or idle between requests) and *busy* from its request
/// head to the end of its response. The same rule holds at both caps: at its address's cap, a new
/// connection closes that address's connection which has waited longest; from 90 % of the total on, it
/// closes the connection that has waited longest of all. So a client that shares its address with slow or
/// idle sockets (a NAT, a proxy, a sidecar) still gets in, and its complete request is answered at once; a
/// new connection is refused only when every connection it could replace has a request in progress.
///
/// Shared by every event loop of the server (one lock); the per-connection deadlines are
/// `ClientConnectionWatch`'s.
package final class ClientConnections: Sendable {
    /// The bounds on connections, and how long a client may take to send a request head.
    package struct Limits: Sendable, Hashable {
        /// Seconds from accepting a connection, or from the first byte of a later request on it, to its
        /// complete request head.
        package var headerTimeout: Double
        /// Seconds a connection may wait between requests (keep-alive) when the server is not near its cap.
        package var idleTimeout: Double
        /// Connections open at once, in all.
        package var total: Int
        /// Connections open at once from one client address.
        package var perClient: Int

        /// The limits.
        package init(headerTimeout: Double, idleTimeout: Double, total: Int, perClient: Int) {
            self.headerTimeout = headerTimeout
            self.idleTimeout = idleTimeout
            self.total = total
            self.perClient = perClient
        }

        /// Connections open from which each new one closes the longest-waiting one (90 % of the total).
        package var evictionThreshold: Int { max(1, total - total / 10) }
    }

    /// Why the server closed a connection or refused one (the `reason` label of
    /// `bufprobe_exporter_connections_closed_total`).
    package enum CloseReason: String, Sendable, CaseIterable {
        /// Its request head was not complete within `headerTimeout`.
        case headerTimeout = "header_timeout"
        /// It waited between requests for longer than `idleTimeout`.
        case idleTimeout = "idle_timeout"
        /// Closed to make room for a new connection near the total cap, or at its address's cap.
        case evicted
        /// Refused at once: its address had `perClient` connections open, each with a request in progress.
        case perClientLimit = "per_client_limit"
        /// Refused at once: `total` connections were open and every one had a request in progress.
        case totalLimit = "connection_limit"
    }

    /// What `open` decided.
    package enum Admission: Sendable, Equatable {
        /// Admitted, with the id the other calls take.
        case admitted(Int)
        /// Refused; close the connection at once.
        case refused(CloseReason)
    }

    private struct Entry {
        let address: String
        /// When the connection began waiting for its next request; `nil` while one is in progress.
        var waitingSince: ContinuousClock.Instant?
        let close: @Sendable () -> Void
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        var perClient: [String: Int] = [:]
        var nextID = 0
        var peak = 0
    }

    /// The limits in force.
    package let limits: Limits
    private let state = Mutex(State())
    private let registry = PrometheusCollectorRegistry()
    private let openGauge: Gauge
    private let peakGauge: Gauge
    private let closedCounters: [CloseReason: Counter]

    /// An empty set of connections bounded by `limits`.
    package init(limits: Limits) {
        self.limits = limits
        func name(_ name: String, _ help: String) -> MetricNameDescriptor {
            MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
        }
        openGauge = registry.makeGauge(descriptor: name("bufprobe_exporter_connections", "Client connections open now."))
        peakGauge = registry.makeGauge(
            descriptor: name("bufprobe_exporter_connections_peak", "The most client connections open at once since the start."))
        registry.makeGauge(descriptor: name("bufprobe_exporter_max_connections", "Client connections open at once at most (--max-connections)."))
            .set(Double(limits.total))
        var counters: [CloseReason: Counter] = [:]
        for reason in CloseReason.allCases {
            counters[reason] = registry.makeCounter(
                descriptor: name(
                    "bufprobe_exporter_connections_closed_total",
                    "Client connections the exporter closed or refused before their request was answered, by reason."),
                labels: [("reason", reason.rawValue)])
        }
        closedCounters = counters
    }

    /// A connection from `address` was accepted: admits it (closing the longest-waiting connection first
    /// when at its address's cap or near the total cap, through its `close`) or refuses it.
    package func open(address: String, close: @escaping @Sendable () -> Void) -> Admission {
        let (admission, evicted) = state.withLock { state -> (Admission, (@Sendable () -> Void)?) in
            var evicted: (@Sendable () -> Void)?
            if state.perClient[address, default: 0] >= limits.perClient {
                guard let id = Self.longestWaiting(in: state, from: address) else { return (.refused(.perClientLimit), nil) }
                evicted = Self.remove(id, from: &state)?.close
            } else if state.entries.count >= limits.evictionThreshold {
                if let id = Self.longestWaiting(in: state) {
                    evicted = Self.remove(id, from: &state)?.close
                } else if state.entries.count >= limits.total {
                    return (.refused(.totalLimit), nil)
                }
            }
            let id = state.nextID
            state.nextID += 1
            state.entries[id] = Entry(address: address, waitingSince: .now, close: close)
            state.perClient[address, default: 0] += 1
            state.peak = max(state.peak, state.entries.count)
            return (.admitted(id), evicted)
        }
        if let evicted {
            closedCounters[.evicted]?.increment()
            evicted()
        }
        if case .refused(let reason) = admission { closedCounters[reason]?.increment() }
        return admission
    }

    /// A request head of connection `id` arrived: it is not to be evicted until its response ended.
    package func busy(_ id: Int) { state.withLock { $0.entries[id]?.waitingSince = nil } }

    /// Connection `id` answered its last request and waits for the next one.
    package func waiting(_ id: Int) { state.withLock { $0.entries[id]?.waitingSince = .now } }

    /// Connection `id` is closed (by either side, or evicted), counted under `reason` when the server
    /// closed it for that reason.
    package func closed(_ id: Int, reason: CloseReason? = nil) {
        state.withLock { state in _ = Self.remove(id, from: &state) }
        if let reason { closedCounters[reason]?.increment() }
    }

    /// Connections open now.
    package var count: Int { state.withLock { $0.entries.count } }

    /// The exposition of the connection metrics, for `/metrics`.
    package func exposition() -> String {
        let (count, peak) = state.withLock { ($0.entries.count, $0.peak) }
        openGauge.set(Double(count))
        peakGauge.set(Double(peak))
        return registry.emitToString()
    }

    /// The connection that has waited longest for a request head, of all or of `address`'s; `nil` when
    /// every one has a request in progress.
    private static func longestWaiting(in state: State, from address: String? = nil) -> Int? {
        var oldest: (id: Int, since: ContinuousClock.Instant)?
        for (id, entry) in state.entries {
            guard let since = entry.waitingSince, address == nil || entry.address == address else { continue }
            if oldest.map({ since < $0.since }) ?? true { oldest = (id, since) }
        }
        return oldest?.id
    }

    private static func remove(_ id: Int, from state: inout State) -> Entry? {
        guard let entry = state.entries.removeValue(forKey: id) else { return nil }
        let left = state.perClient[entry.address, default: 1] - 1
        state.perClient[entry.address] = left > 0 ? left : nil
        return entry
    }
}
