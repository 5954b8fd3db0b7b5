import Foundation
import Testing
import TestSupport

/// A real Prometheus scraping `bufprobe serve` the blackbox-exporter way (target -> `__param_target`),
/// which probes nginx on 127.0.0.1: one fast file, one throttled to half its bit rate, one 404. The verdicts
/// and stall metrics Prometheus stored are read back through its HTTP API.
@Suite("serve: scraped by a real Prometheus")
struct ServePrometheusTests {
    @Test("Prometheus stores pass for the fast target, degraded with stalls for the throttled one, fail for the 404")
    func prometheusStoresVerdicts() throws {
        let began = Date()
        let rate = ServeCommandTests.halfRate
        let nginx = try NginxServer(rates: [rate])
        let serve = try ServeProcess()
        let targets = [
            "fast": nginx.url(ServeCommandTests.file),
            "throttled": nginx.url(ServeCommandTests.file, bytesPerSecond: rate),
            "missing": nginx.url("no-such-file.mp4"),
        ]
        // An 8 s timeout: the exporter checks for 7.5 s, long enough for the throttled file to stall.
        let configuration = """
            global:
              scrape_interval: 8s
              scrape_timeout: 8s
            scrape_configs:
              - job_name: bufprobe
                metrics_path: /probe
                static_configs:
                  - targets: [\(targets.values.sorted().map { "'\($0)'" }.joined(separator: ", "))]
                relabel_configs:
                  - source_labels: [__address__]
                    target_label: __param_target
                  - source_labels: [__param_target]
                    target_label: instance
                  - target_label: __address__
                    replacement: 127.0.0.1:\(serve.port)

            """
        let prometheus = try PrometheusServer(configuration: configuration)
        let deadline = Date().addingTimeInterval(60)
        var stored: [(labels: [String: String], value: Double)] = []
        while Date() < deadline {
            stored = (try? prometheus.query("bufprobe_probe_success")) ?? []
            if stored.count == 3 { break }
            usleep(500_000)
        }
        try #require(stored.count == 3, "Prometheus stored \(stored.count) targets; serve's log:\n\(serve.stderr)")

        func value(_ expression: String, _ name: String) throws -> Double? {
            try prometheus.query(expression).first { $0.labels["instance"] == targets[name] }?.value
        }
        #expect(try value("bufprobe_probe_success", "fast") == 1)
        #expect(try value(#"bufprobe_verdict{verdict="pass"}"#, "fast") == 1)
        #expect(try value("bufprobe_stalls", "fast") == 0)
        #expect(try value("bufprobe_probe_success", "throttled") == 1)
        #expect(try value(#"bufprobe_verdict{verdict="degraded"}"#, "throttled") == 1, "\(serve.stderr)")
        #expect(try value("bufprobe_stalls", "throttled") ?? 0 > 0, "\(serve.stderr)")
        #expect(try value("bufprobe_stall_seconds", "throttled") ?? 0 > 0)
        #expect(try value("bufprobe_probe_success", "missing") == 0)
        #expect(try value(#"bufprobe_verdict{verdict="fail"}"#, "missing") == 1)
        #expect(try value("bufprobe_startup_delay_seconds", "missing") == nil, "a null must not be stored as 0")
        // Every scrape finished inside Prometheus's own timeout.
        for name in targets.keys {
            #expect(try value("up", name) == 1, "\(name) scrape failed")
            #expect(try value("scrape_duration_seconds", name) ?? 99 < 8)
        }
        let seconds = Date().timeIntervalSince(began)
        print("serve + Prometheus: stored 3 targets' verdicts in \(String(format: "%.1f", seconds)) s")
        #expect(seconds < 90)
    }
}
