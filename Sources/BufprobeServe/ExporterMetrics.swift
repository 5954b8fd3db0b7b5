package import CheckEngine
import Prometheus

/// The exporter's own metrics, `GET /metrics`: checks run (by verdict), checks in flight and the most at
/// once, check durations, and requests refused or failed by reason (503s are `reason="overloaded"`).
package final class ExporterMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()
    private let slots: CheckSlots
    private let inFlight: Gauge
    private let peak: Gauge
    private let durations: ValueHistogram
    private let checks: [CheckVerdict: Counter]
    private let failures: [String: Counter]

    /// The reasons of `bufprobe_exporter_failures_total`: every refusal's, and `check_failed` for a check
    /// whose verdict was fail.
    package static let failureReasons = ProbeRefusal.Kind.allCases.map(\.rawValue) + ["check_failed"]

    /// Metrics of an exporter whose checks take `slots`.
    package init(slots: CheckSlots) {
        self.slots = slots
        let limit = registry.makeGauge(descriptor: Self.name("bufprobe_exporter_max_parallel", "Checks run at once at most (--max-parallel)."))
        limit.set(Double(slots.limit))
        inFlight = registry.makeGauge(descriptor: Self.name("bufprobe_exporter_checks_in_flight", "Checks running now."))
        peak = registry.makeGauge(descriptor: Self.name("bufprobe_exporter_checks_in_flight_peak", "The most checks that ran at once since the exporter started."))
        durations = registry.makeValueHistogram(
            descriptor: Self.name("bufprobe_exporter_check_duration_seconds", "Wall-clock seconds per check."),
            buckets: [0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120])
        var checks: [CheckVerdict: Counter] = [:]
        for verdict in [CheckVerdict.pass, .degraded, .fail] {
            checks[verdict] = registry.makeCounter(
                descriptor: Self.name("bufprobe_exporter_checks_total", "Checks run, by verdict."),
                labels: [("verdict", verdict.rawValue)])
        }
        self.checks = checks
        var failures: [String: Counter] = [:]
        for reason in Self.failureReasons {
            failures[reason] = registry.makeCounter(
                descriptor: Self.name(
                    "bufprobe_exporter_failures_total",
                    "Probe requests that did not run a check or whose check failed, by reason (overloaded: answered 503)."),
                labels: [("reason", reason)])
        }
        self.failures = failures
    }

    // The names carry their unit already, hence no unitName.
    private static func name(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }

    /// A check started (its slot is taken).
    package func checkStarted() { refreshSlots() }

    /// A check ended with `verdict` after `seconds` (its slot is given back).
    package func checkEnded(verdict: CheckVerdict, seconds: Double) {
        checks[verdict]?.increment()
        durations.record(seconds)
        if verdict == .fail { failures["check_failed"]?.increment() }
        refreshSlots()
    }

    /// A request was refused.
    package func refused(_ kind: ProbeRefusal.Kind) { failures[kind.rawValue]?.increment() }

    /// The exposition.
    package func exposition() -> String {
        refreshSlots()
        return registry.emitToString()
    }

    private func refreshSlots() {
        inFlight.set(Double(slots.inFlight))
        peak.set(Double(slots.peak))
    }
}
