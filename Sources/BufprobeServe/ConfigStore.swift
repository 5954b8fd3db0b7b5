import Foundation
import Prometheus
import Synchronization

/// The configuration in force, and its reloads (SIGHUP, `POST /-/reload`): a file that does not parse
/// leaves the old configuration in force, is logged, and counted (`bufprobe_exporter_config_reload_failures_total`,
/// `bufprobe_exporter_config_last_reload_successful 0`), as the blackbox exporter does.
package final class ConfigStore: Sendable {
    /// The file, `nil` without `--config.file`.
    package let path: String?
    private let current: Mutex<ExporterConfig>
    private let registry = PrometheusCollectorRegistry()
    private let lastSuccessful: Gauge
    private let lastSuccessTime: Gauge
    private let failures: Counter

    /// A store whose first configuration is `config`, read from `path`.
    package init(path: String?, config: ExporterConfig) {
        self.path = path
        current = Mutex(config)
        lastSuccessful = registry.makeGauge(descriptor: MetricNameDescriptor(
            metricName: "bufprobe_exporter_config_last_reload_successful", unitName: "",
            helpText: "1 when the last load of --config.file succeeded, 0 when it failed (the previous configuration stays)."))
        lastSuccessTime = registry.makeGauge(descriptor: MetricNameDescriptor(
            metricName: "bufprobe_exporter_config_last_reload_success_timestamp_seconds", unitName: "",
            helpText: "Unix time of the last successful load of --config.file."))
        failures = registry.makeCounter(descriptor: MetricNameDescriptor(
            metricName: "bufprobe_exporter_config_reload_failures_total", unitName: "",
            helpText: "Reloads of --config.file that failed."))
        lastSuccessful.set(1.0)
        lastSuccessTime.set(Double(Date().timeIntervalSince1970))
    }

    /// The configuration in force.
    package var config: ExporterConfig { current.withLock { $0 } }

    /// Reads the file again; on success it is in force, on failure the old one stays and the sentence is
    /// returned (and counted).
    @discardableResult
    package func reload() -> Result<ExporterConfig, ExporterConfigError> {
        guard let path else { return .failure(ExporterConfigError("no --config.file was given, so there is nothing to reload.")) }
        do {
            let config = try ExporterConfig.load(path: path)
            current.withLock { $0 = config }
            lastSuccessful.set(1.0)
            lastSuccessTime.set(Double(Date().timeIntervalSince1970))
            return .success(config)
        } catch {
            lastSuccessful.set(0.0)
            failures.increment()
            return .failure(error)
        }
    }

    /// The reload metrics (empty without a file).
    package func exposition() -> String { path == nil ? "" : registry.emitToString() }
}
