import CheckEngine
import Foundation
import Synchronization
import Testing
import TestSupport

/// The verdict thresholds through all three front ends: `check`'s options, a `serve` module's keys and
/// `StreamCheck.Options`, on the same throttled streams (`StallingHLS`), give the same verdicts; the
/// exporter's answer carries the thresholds in force.
@Suite("Verdict thresholds: check, a serve module and StreamCheck.Options agree", .serialized, .ffmpegLog)
struct ServeThresholdTests {
    @Test("max_stalls 1 and max_rebuffer_ratio 5%: one short stall passes and three stalls are degraded, in every front end")
    func sameVerdicts() async throws {
        let streams = try StallingHLS()
        let directory = try CheckServers.temporaryDirectory("bufprobe-thresholds")
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("bufprobe.yml")
        try "modules:\n  gate:\n    max_stalls: 1\n    max_rebuffer_ratio: 5%\n".write(to: config, atomically: true, encoding: .utf8)
        let serve = try ServeProcess(["--config.file", config.path])
        let options = {
            var options = StreamCheck.Options()
            options.thresholds = VerdictThresholds(maxStalls: 1, maxRebufferRatio: 0.05)
            return options
        }()
        let cases = [(try streams.oneShortStall(), "pass"), (try streams.threeStalls(), "degraded")]

        // All six checks at once (each on its own connection, throttled alike): about 20 s, not 70.
        var library: [Task<StreamCheck.Report, Never>] = []
        for (url, _) in cases { library.append(Task { await StreamCheck(url, options: options).run() }) }
        let port = serve.port
        let answers = Mutex<[Int: Result<String, any Error>]>([:])
        DispatchQueue.concurrentPerform(iterations: 2 * cases.count) { job in
            let url = cases[job / 2].0
            let outcome = Result<String, any Error> {
                if job % 2 == 0 {
                    return try BufprobeProcess.run(["check", "--json", "--max-stalls", "1", "--max-rebuffer-ratio", "5%", url]).stdout
                }
                let answer = try HTTPClient.get(
                    port: port, "/probe?target=\(HTTPClient.encoded(url))&module=gate",
                    headers: ["X-Prometheus-Scrape-Timeout-Seconds": "40"], timeout: 45)
                return answer.status == 200 ? answer.body : "HTTP \(answer.status): \(answer.body)"
            }
            answers.withLock { $0[job] = outcome }
        }

        for (index, (_, expected)) in cases.enumerated() {
            let cli = try #require(answers.withLock { $0[2 * index] }).get()
            let document = try #require(try JSONSerialization.jsonObject(with: Data(cli.utf8)) as? [String: Any], "\(cli)")
            #expect(document["verdict"] as? String == expected, "check: \(document["reason"] ?? "")")

            let body = try #require(answers.withLock { $0[2 * index + 1] }).get()
            let metrics = try Exposition(body)
            #expect(metrics.value("bufprobe_verdict", ["verdict": expected]) == 1, "serve: \(body)")
            #expect(metrics.value("bufprobe_verdict_threshold", ["threshold": "max_stalls"]) == 1)
            #expect(metrics.value("bufprobe_verdict_threshold", ["threshold": "max_rebuffer_ratio"]) == 0.05)
            #expect(metrics.value("bufprobe_verdict_threshold", ["threshold": "max_startup"]) == 3)
            #expect(metrics.has("bufprobe_verdict_threshold") && metrics.value("bufprobe_verdict_threshold", ["threshold": "max_latency"]) == nil,
                "a threshold not limited is left out")

            let report = await library[index].value
            #expect(report.verdict.rawValue == expected, "StreamCheck: \(report.reason)")
        }
        withExtendedLifetime(serve) {}
    }

    @Test("a module's thresholds are parsed once and strictly: a bad value is one sentence naming the module and the key")
    func badModuleThresholds() throws {
        let directory = try CheckServers.temporaryDirectory("bufprobe-thresholds")
        defer { try? FileManager.default.removeItem(at: directory) }
        for (yaml, sentence) in [
            ("max_stalls: -1", "module gate: max_stalls: '-1' is not a number of stalls; expected a whole number, 0 or more."),
            ("max_rebuffer_ratio: 2", "module gate: max_rebuffer_ratio: '2' is not a rebuffer ratio; expected a fraction from 0 to 1 (0.05) or a percentage (5%)."),
            ("max_latency: soon", "module gate: max_latency: 'soon' is not a duration"),
        ] {
            let config = directory.appendingPathComponent("bufprobe.yml")
            try "modules:\n  gate:\n    \(yaml)\n".write(to: config, atomically: true, encoding: .utf8)
            let result = try BufprobeProcess.run(["serve", "--config.file", config.path, "--config.check"])
            #expect(result.status == 1, "\(yaml): \(result.stderr)")
            #expect(result.stderr.contains(sentence), "\(yaml): \(result.stderr)")
        }
    }
}
