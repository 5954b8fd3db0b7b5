import BufprobeServe
@testable import CheckEngine
import Foundation
import Testing
import TestSupport

/// The monitoring guide (`docs/monitoring.md`, once the README's Monitoring section) stays true: it lists
/// every metric the exporter answers, and its Prometheus configuration and alert rules pass Prometheus's own
/// checker (`promtool`).
@Suite("serve: the monitoring guide, docs/monitoring.md")
struct MonitoringReadmeTests {
    /// The whole guide, from its `# Monitoring` title on.
    static func section() throws -> Substring {
        let guide = try String(contentsOf: BufprobeProcess.packageRoot.appendingPathComponent("docs/monitoring.md"), encoding: .utf8)
        let start = try #require(guide.range(of: "# Monitoring\n"), "docs/monitoring.md starts with its title")
        return guide[start.upperBound...]
    }

    @Test("it names every metric /probe and /metrics answer")
    func listsEveryMetric() throws {
        let section = try Self.section()
        let own = try Exposition(ExporterMetrics(slots: CheckSlots(limit: 2)).exposition())
        let names = ProbeMetrics.gauges.map(\.name)
            + ["bufprobe_probe_duration_seconds", "bufprobe_verdict", "bufprobe_probe_info", "bufprobe_playlist_problems", "bufprobe_playlist_reloads"]
            + ["bufprobe_variant_problems", "bufprobe_variants_validated", "bufprobe_refused_requests"]
            + own.types.keys
            + ["bufprobe_exporter_config_last_reload_successful", "bufprobe_exporter_config_last_reload_success_timestamp_seconds",
               "bufprobe_exporter_config_reload_failures_total"]
        for name in names {
            #expect(section.contains("`\(name)"), "docs/monitoring.md does not list \(name)")
        }
    }

    @Test("its scrape configuration, alert rules and sharding example pass promtool")
    func yamlPassesPromtool() throws {
        let all = try Self.section().components(separatedBy: "```yaml\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        // The modules example is bufprobe's own file, checked by `serve --config.check` below; the web
        // configuration's (with a placeholder hash) is ServeWebConfigTests' business.
        let blocks = all.filter { !$0.hasPrefix("modules:") && !$0.hasPrefix("tls_server_config:") }
        try #require(blocks.count == 3, "expected the scrape configuration, the rules and the sharding example")
        let directory = try CheckServers.temporaryDirectory("bufprobe-readme")
        defer { try? FileManager.default.removeItem(at: directory) }
        // The sharding example is a job's relabelling only: put it in a job.
        let shard = "scrape_configs:\n  - job_name: shard\n    metrics_path: /probe\n    static_configs:\n      - targets: [https://a/b.m3u8]\n" + blocks[2]
        for (name, text, check) in [("scrape.yml", blocks[0], "config"), ("rules.yml", blocks[1], "rules"), ("shard.yml", shard, "config")] {
            let file = directory.appendingPathComponent(name)
            try text.write(to: file, atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/promtool")
            process.arguments = ["check", check, file.path]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "promtool check \(check) \(name): \(text)")
        }
        let modules = try #require(all.first { $0.hasPrefix("modules:") }, "docs/monitoring.md shows a --config.file example")
        let file = directory.appendingPathComponent("modules.yml")
        try modules.write(to: file, atomically: true, encoding: .utf8)
        let checked = try BufprobeProcess.run(["serve", "--config.file", file.path, "--config.check"])
        #expect(checked.status == 0, "serve --config.check on docs/monitoring.md's modules: \(checked.stderr)")
    }
}
