import Foundation
import Testing
import TestSupport

/// The monitoring assets shipped in `docs/` work against the real thing: the alert rules pass `promtool`
/// and a real Prometheus that scraped `bufprobe serve` evaluates every rule and every Grafana panel's
/// expression without error, over metrics that exist; the scale-out example (two replicas, `hashmod`)
/// sends each stream to the replica its hash names.
@Suite("serve: the shipped dashboard, alert rules and scale-out example", .serialized)
struct MonitoringAssetsTests {
    static let docs = BufprobeProcess.packageRoot.appendingPathComponent("docs")
    static let rules = docs.appendingPathComponent("alert-rules.yml")

    /// Metrics that only some targets have, absent from this test's scrape (no live HLS target; the latency
    /// metrics are checked against a real live source by `ServeLiveLatencyTests`).
    static let absentHere: Set<String> = [
        "bufprobe_playlist_problems", "bufprobe_live_latency_seconds", "bufprobe_live_latency_drift_seconds",
        "bufprobe_llhls_blocking_reloads",
    ]

    static func promtool(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/promtool")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// Every `expr` of the dashboard's panels, with Grafana's variables replaced by what Grafana would send.
    static func dashboardExpressions() throws -> [String] {
        let data = try Data(contentsOf: docs.appendingPathComponent("grafana-dashboard.json"))
        let dashboard = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let panels = try #require(dashboard["panels"] as? [[String: Any]])
        let expressions = panels.flatMap { ($0["targets"] as? [[String: Any]] ?? []).compactMap { $0["expr"] as? String } }
        return expressions.map {
            $0.replacingOccurrences(of: "$instance", with: ".*").replacingOccurrences(of: "$__rate_interval", with: "1m")
        }
    }

    /// Every alert's `expr` (one line each in the file).
    static func ruleExpressions() throws -> [String] {
        try String(contentsOf: rules, encoding: .utf8).split(separator: "\n").compactMap { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return trimmed.hasPrefix("expr: ") ? String(trimmed.dropFirst(6)) : nil
        }
    }

    @Test("the alert rules pass promtool check rules; the scale-out example passes promtool check config")
    func promtoolAccepts() throws {
        let rules = try Self.promtool(["check", "rules", Self.rules.path])
        #expect(rules.status == 0, "\(rules.output)")
        let config = try Self.promtool(["check", "config", Self.docs.appendingPathComponent("prometheus-scale-out.yml").path])
        #expect(config.status == 0, "\(config.output)")
    }

    @Test("a real Prometheus evaluates every rule and every panel's expression without error, over metrics the exporter answers")
    func prometheusEvaluatesEveryExpression() throws {
        let nginx = try NginxServer()
        let serve = try ServeProcess(["--config.file", Self.docs.appendingPathComponent("bufprobe-modules.yml").path])
        let targets = [nginx.url(ServeCommandTests.file), nginx.url("no-such-file.mp4")]
        let prometheus = try PrometheusServer(configuration: """
            global:
              scrape_interval: 2s
              scrape_timeout: 2s
              evaluation_interval: 2s
            rule_files: ['\(Self.rules.path)']
            scrape_configs:
              - job_name: streams
                metrics_path: /probe
                static_configs:
                  - targets: [\(targets.map { "'\($0)'" }.joined(separator: ", "))]
                relabel_configs:
                  - source_labels: [__address__]
                    target_label: __param_target
                  - source_labels: [__param_target]
                    target_label: instance
                  - target_label: __address__
                    replacement: 127.0.0.1:\(serve.port)
              - job_name: bufprobe-exporter
                static_configs:
                  - targets: ['127.0.0.1:\(serve.port)']

            """)
        // Two scrapes of every job at least, so that rate() has two samples.
        let deadline = Date().addingTimeInterval(60)
        var ready = false
        while Date() < deadline, !ready {
            let probes = (try? prometheus.query("count_over_time(bufprobe_probe_success[1m]) >= 2")) ?? []
            let own = (try? prometheus.query("count_over_time(bufprobe_exporter_max_parallel[1m]) >= 2")) ?? []
            ready = probes.count == 2 && own.count == 1
            if !ready { usleep(500_000) }
        }
        try #require(ready, "Prometheus did not scrape twice in 60 s; serve's log:\n\(serve.stderr)")

        let expressions = try Self.dashboardExpressions() + Self.ruleExpressions()
        #expect(expressions.count >= 20)
        var names: Set<String> = []
        for expression in expressions {
            // query() throws when the API answers an error (a bad expression, an unknown function).
            #expect(throws: Never.self, "\(expression)") { _ = try prometheus.query(expression) }
            let regex = /bufprobe_[a-z_]+/
            for match in expression.matches(of: regex) { names.insert(String(match.output)) }
        }
        for name in names.subtracting(Self.absentHere).sorted() {
            #expect(try !prometheus.query("count({__name__=\"\(name)\"})").isEmpty, "\(name) is in an expression but Prometheus has no series of it")
        }
        #expect(names.isSuperset(of: ["bufprobe_probe_success", "bufprobe_exporter_checks_total", "bufprobe_exporter_config_last_reload_successful"]))

        // Prometheus evaluated every rule of the file, and none reported an error.
        let ruleDeadline = Date().addingTimeInterval(20)
        var health: [String] = []
        while Date() < ruleDeadline {
            // curl: the rules answer comes chunked, which the tests' own client does not decode.
            let answer = try ServeOperationsTests.curl(["http://127.0.0.1:\(prometheus.port)/api/v1/rules"])
            let document = try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any]
            let groups = (document?["data"] as? [String: Any])?["groups"] as? [[String: Any]] ?? []
            health = groups.flatMap { ($0["rules"] as? [[String: Any]] ?? []).map { "\($0["name"] ?? "?"): \($0["health"] ?? "?") \($0["lastError"] ?? "")" } }
            if health.count == 11, health.allSatisfy({ $0.contains(": ok") }) { break }
            usleep(500_000)
        }
        #expect(health.count == 11 && health.allSatisfy { $0.contains(": ok") }, "\(health)")
    }

    /// The shard Prometheus's `hashmod` gives `value`: the MD5's last 8 bytes, big-endian, modulo `modulus`.
    static func hashmod(_ value: String, modulus: UInt64) throws -> UInt64 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/md5sum")
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: Data(value.utf8))
        try input.fileHandleForWriting.close()
        let hex = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).prefix(32)
        process.waitUntilExit()
        let low = try #require(UInt64(hex.suffix(16), radix: 16))
        return low % modulus
    }

    @Test("the scale-out example run as shipped: each stream goes to the replica hashmod names, and only to it")
    func scaleOutShards() throws {
        let nginx = try NginxServer()
        let replicas = [try ServeProcess(), try ServeProcess()]
        let targets = (0..<6).map { nginx.url(ServeCommandTests.file) + "?stream=\($0)" }
        var configuration = try String(contentsOf: Self.docs.appendingPathComponent("prometheus-scale-out.yml"), encoding: .utf8)
        let replacements = [
            ("bufprobe-0.monitoring.svc:9788", "127.0.0.1:\(replicas[0].port)"),
            ("bufprobe-1.monitoring.svc:9788", "127.0.0.1:\(replicas[1].port)"),
            ("  - alert-rules.yml", "  - \(Self.rules.path)"),
            ("scrape_interval: 30s", "scrape_interval: 3s"), ("scrape_timeout: 10s", "scrape_timeout: 2s"),
            ("          - https://cdn.example.net/live/master.m3u8\n          - https://cdn.example.net/vod/movie.mp4\n",
             targets.map { "          - '\($0)'\n" }.joined()),
        ]
        for (from, to) in replacements {
            #expect(configuration.contains(from), "the example no longer has '\(from)'")
            configuration = configuration.replacingOccurrences(of: from, with: to)
        }
        let prometheus = try PrometheusServer(configuration: configuration)
        let deadline = Date().addingTimeInterval(60)
        var stored: [(labels: [String: String], value: Double)] = []
        while Date() < deadline {
            stored = (try? prometheus.query("bufprobe_probe_success")) ?? []
            if stored.count == targets.count { break }
            usleep(500_000)
        }
        try #require(stored.count == targets.count, "stored \(stored.count) of \(targets.count) streams")
        var expected = [0, 0]
        for series in stored {
            let target = try #require(series.labels["instance"])
            let shard = try Self.hashmod(target, modulus: 2)
            #expect(series.labels["replica"] == String(shard), "\(target)")
            expected[Int(shard)] += 1
            #expect(series.value == 1)
        }
        // Each replica ran checks for its own streams only: a replica with no stream of its own ran none.
        // The exporter job's targets are scraped at their own offsets within the interval, so under load
        // their first `up` may come after the streams' results: wait for both, as long as the streams.
        var exporters: [(labels: [String: String], value: Double)] = []
        while Date() < deadline.addingTimeInterval(30) {
            exporters = (try? prometheus.query("up{job=\"bufprobe-exporter\"}")) ?? []
            if exporters.count == 2 && exporters.allSatisfy({ $0.value == 1 }) { break }
            usleep(500_000)
        }
        #expect(exporters.count == 2 && exporters.allSatisfy { $0.value == 1 }, "\(exporters)")
        for (index, replica) in replicas.enumerated() {
            let metrics = try replica.metrics()
            let checks = ["pass", "degraded", "fail"].compactMap { metrics.value("bufprobe_exporter_checks_total", ["verdict": $0]) }.reduce(0, +)
            #expect((checks > 0) == (expected[index] > 0), "replica \(index): \(checks) checks for \(expected[index]) streams")
            #expect(!replica.stderr.contains("GET /probe") || expected[index] > 0)
            for series in stored where series.labels["replica"] != String(index) {
                let target = series.labels["instance"] ?? ""
                #expect(!replica.stderr.contains("target=\(target) ") && !replica.stderr.contains("target=\(target)\n"), "replica \(index) checked \(target), not its stream")
            }
        }
    }
}
