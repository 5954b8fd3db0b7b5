import BufprobeOutput
import BufprobeServe
import CheckEngine
import Foundation
import Synchronization
import Testing
import TestSupport

/// Every metric the exporter answers passes `promtool check metrics` (Prometheus's own linter: a gauge
/// without a counter's `_total`, base units such as bytes, help text), exit 0: `/probe` for every kind of
/// check (a VOD, a stalling one, a failed one, every HLS variant validated, a refused request, each
/// module of docs/bufprobe-modules.yml a loopback target can use) and `/metrics`; and the metric families
/// only live origins have (HLS playlist health, live latency, live DASH, LL-HLS), from the recorded
/// reports of `Tests/Fixtures/events/`.
@Suite("serve: promtool check metrics accepts /probe for every kind of check, and /metrics", .serialized)
struct PromtoolMetricsTests {
    /// `promtool check metrics` of `text` (it reads standard input): its status and what it said.
    static func lint(_ text: String) throws -> (status: Int32, output: String) {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("bufprobe-promtool-\(UUID().uuidString).txt")
        try text.write(to: input, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: input) }
        let run = try BufprobeProcess.run(URL(fileURLWithPath: "/usr/bin/promtool"), ["check", "metrics"], timeout: 30, standardInput: input.path)
        return (run.status, run.stdout + run.stderr)
    }

    @Test("promtool finds the old names wrong, so that this suite can fail: a gauge named _total, a rate in bits")
    func promtoolRejectsTheOldNames() throws {
        let old = """
            # HELP bufprobe_stalls_total Stalls during the check.
            # TYPE bufprobe_stalls_total gauge
            bufprobe_stalls_total 1
            # HELP bufprobe_throughput_bits_per_second Bits received per second.
            # TYPE bufprobe_throughput_bits_per_second gauge
            bufprobe_throughput_bits_per_second 160000

            """
        let result = try Self.lint(old)
        #expect(result.status != 0, "\(result.output)")
        #expect(result.output.contains("non-counter metrics should not have \"_total\" suffix"), "\(result.output)")
        #expect(result.output.contains("use base unit \"bytes\" instead of \"bits\""), "\(result.output)")
    }

    @Test("each recorded live check's metrics (HLS playlist health, live latency, live DASH, LL-HLS) pass promtool", arguments: [
        "playlist-health", "hls-live", "dash-live-template", "llhls-ignore-blocking",
    ])
    func recordedLiveReports(fixture: String) throws {
        let file = BufprobeProcess.packageRoot.appendingPathComponent("Tests/Fixtures/events/\(fixture).json")
        let report = try JSONOutput.decoder().decode(CheckReport.self, from: Data(contentsOf: file))
        let text = ProbeMetrics.exposition(of: report, probeSeconds: 12)
        let families = [
            "playlist-health": "bufprobe_playlist_problems", "hls-live": "bufprobe_live_latency_seconds",
            "dash-live-template": "bufprobe_dash_problems", "llhls-ignore-blocking": "bufprobe_llhls_blocking_reloads",
        ]
        #expect(text.contains("\n" + families[fixture]!), "the fixture must bring its family for the test to mean anything")
        let result = try Self.lint(text)
        #expect(result.status == 0, "\(fixture):\n\(result.output)")
    }

    @Test("/probe of a VOD, a stalling VOD, a missing file, every HLS variant, a refused target and each usable module of docs/bufprobe-modules.yml, then /metrics, pass promtool")
    func liveExporter() throws {
        let rate = 20_000
        let nginx = try NginxServer(rates: [rate])
        let serve = try ServeProcess([
            "--config.file", BufprobeProcess.packageRoot.appendingPathComponent("docs/bufprobe-modules.yml").path,
            "--allow-target", "http://127\\.0\\.0\\.1:\(nginx.port)/.*",
        ])
        let port = serve.port
        let vod = nginx.url("h264-aac.mp4")
        let probes: [(name: String, query: String)] = [
            ("vod", "target=\(HTTPClient.encoded(vod))"),
            ("stalling", "target=\(HTTPClient.encoded(nginx.url("h264-aac.mp4", bytesPerSecond: rate)))&duration=10s"),
            ("missing", "target=\(HTTPClient.encoded(nginx.url("no-such-file.mp4")))"),
            ("all variants", "target=\(HTTPClient.encoded(nginx.url("hls/master.m3u8")))&all_variants=true"),
            ("refused", "target=\(HTTPClient.encoded("http://127.0.0.2:\(nginx.port)/h264-aac.mp4"))"),
            ("module default", "target=\(HTTPClient.encoded(vod))&module=default"),
            ("module vod_progressive", "target=\(HTTPClient.encoded(vod))&module=vod_progressive"),
        ]
        let answers = Mutex<[Int: Result<HTTPClient.Response, any Error>]>([:])
        DispatchQueue.concurrentPerform(iterations: probes.count) { index in
            let outcome = Result {
                try HTTPClient.get(
                    port: port, "/probe?" + probes[index].query, headers: ["X-Prometheus-Scrape-Timeout-Seconds": "30"], timeout: 40)
            }
            answers.withLock { $0[index] = outcome }
        }
        for (index, probe) in probes.enumerated() {
            let answer = try #require(answers.withLock { $0[index] }).get()
            if probe.name == "refused" {
                // Refused before any check: a 403 sentence, no metrics to lint.
                #expect(answer.status == 403, "\(probe.name): \(answer.body)")
                continue
            }
            #expect(answer.status == 200, "\(probe.name): \(answer.body)")
            #expect(answer.body.contains("\nbufprobe_verdict{"), "\(probe.name): \(answer.body)")
            let result = try Self.lint(answer.body)
            #expect(result.status == 0, "\(probe.name):\n\(result.output)\n\(answer.body)")
        }
        let stalling = try Exposition(try #require(answers.withLock { $0[1] }).get().body)
        #expect((stalling.value("bufprobe_stalls") ?? 0) > 0, "the throttled target must stall for the stall metrics to be linted with a value")
        let variants = try Exposition(try #require(answers.withLock { $0[3] }).get().body)
        #expect(variants.has("bufprobe_variant_problems"))

        let metrics = try serve.get("/metrics")
        #expect(metrics.status == 200)
        let result = try Self.lint(metrics.body)
        #expect(result.status == 0, "/metrics:\n\(result.output)\n\(metrics.body)")
        withExtendedLifetime(nginx) {}
    }
}
