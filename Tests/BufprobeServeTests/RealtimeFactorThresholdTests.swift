import BufprobeOutput
import CheckEngine
import Foundation
import Synchronization
import Testing
import TestSupport

/// `--min-realtime-factor` through all three front ends, on a real slow origin: nginx on 127.0.0.1 serving
/// `samples/h264-aac.mp4` at 20,000 bytes/s (`limit_rate`, as the demo origin's `/slow/`), which arrives at
/// about 0.8x real time. With the stall thresholds relaxed, the real-time rule is the only one left: at its
/// default it is degraded and the reason names `--min-realtime-factor 1`; relaxed to 0.5 (or off, 0) it passes.
@Suite("--min-realtime-factor: check, a serve module and StreamCheck.Options on a slow nginx origin", .serialized, .ffmpegLog)
struct RealtimeFactorThresholdTests {
    /// Every other rule relaxed, as issue reporters gate a slow origin.
    static let relaxed = ["--max-stalls", "5", "--max-stall-time", "10s", "--max-rebuffer-ratio", "50%", "--max-startup", "5s"]

    @Test("slower than real time is degraded at --min-realtime-factor's default 1 and passes at 0.5, in check, a serve module and StreamCheck.Options")
    func relaxedPassesDefaultDegrades() async throws {
        let rate = 20_000
        let nginx = try NginxServer(rates: [rate])
        let url = "http://127.0.0.1:\(nginx.port)/rate/\(rate)/h264-aac.mp4"
        let directory = try CheckServers.temporaryDirectory("bufprobe-realtime")
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("bufprobe.yml")
        let stalls = "max_stalls: 5\n    max_stall_time: 10s\n    max_rebuffer_ratio: 50%\n    max_startup: 5s\n"
        try "modules:\n  slow_ok:\n    \(stalls)    min_realtime_factor: 0.5\n  strict:\n    \(stalls)"
            .write(to: config, atomically: true, encoding: .utf8)
        let serve = try ServeProcess(["--config.file", config.path])
        let port = serve.port
        var options = StreamCheck.Options(maxStartup: 5)
        options.thresholds = VerdictThresholds(maxStalls: 5, maxStallTime: 10, maxRebufferRatio: 0.5, maxStartup: 5, minRealtimeFactor: 0.5)
        let library = Task { [options] in await StreamCheck(url, options: options).run() }

        // Two checks and two probes at once, each on its own throttled connection: about 15 s, not 60.
        let jobs: [@Sendable () throws -> String] = [
            { try BufprobeProcess.run(["check", "--json"] + Self.relaxed + [url]).stdout },
            { try BufprobeProcess.run(["check", "--json"] + Self.relaxed + ["--min-realtime-factor", "0.5", url]).stdout },
            { try Self.probe(port: port, url, module: "strict") },
            { try Self.probe(port: port, url, module: "slow_ok") },
        ]
        let answers = Mutex<[Int: Result<String, any Error>]>([:])
        DispatchQueue.concurrentPerform(iterations: jobs.count) { job in
            let outcome = Result { try jobs[job]() }
            answers.withLock { $0[job] = outcome }
        }
        let answer = { (job: Int) throws -> String in try #require(answers.withLock { $0[job] }).get() }

        let strict = try Self.document(answer(0))
        let factor = try #require(strict["realtime_factor"] as? Double, "\(strict)")
        #expect(factor < 1, "the throttled origin must arrive slower than real time: \(factor)")
        #expect(strict["verdict"] as? String == "degraded", "\(strict["reason"] ?? "")")
        let reason = strict["reason"] as? String ?? ""
        #expect(reason.hasSuffix(String(format: " arrived slower than real time (%.2fx, below --min-realtime-factor 1).", factor)), "\(reason)")
        #expect(!reason.contains("stalled"), "only the real-time rule is crossed: \(reason)")

        let slowOK = try Self.document(answer(1))
        #expect(slowOK["verdict"] as? String == "pass", "\(slowOK["reason"] ?? "")")
        #expect((slowOK["reason"] as? String)?.contains("(within --min-realtime-factor 0.5)") == true, "\(slowOK["reason"] ?? "")")
        let thresholds = try #require((slowOK["settings"] as? [String: Any])?["thresholds"] as? [String: Any])
        #expect(thresholds["min_realtime_factor"] as? Double == 0.5)

        let strictBody = try answer(2)
        let strictProbe = try Exposition(strictBody)
        #expect(strictProbe.value("bufprobe_verdict", ["verdict": "degraded"]) == 1, "serve, module strict: \(strictBody)")
        #expect(strictProbe.value("bufprobe_verdict_threshold", ["threshold": "min_realtime_factor"]) == 1)
        let slowBody = try answer(3)
        let slowProbe = try Exposition(slowBody)
        #expect(slowProbe.value("bufprobe_verdict", ["verdict": "pass"]) == 1, "serve, module slow_ok: \(slowBody)")
        #expect(slowProbe.value("bufprobe_verdict_threshold", ["threshold": "min_realtime_factor"]) == 0.5)

        // StreamCheck.Options: the thresholds given are the ones the report says were in force.
        let report = await library.value
        #expect(report.verdict == .pass, "StreamCheck: \(report.reason)")
        let settings = try #require(Self.document(report.json)["settings"] as? [String: Any])
        let written = try JSONSerialization.data(withJSONObject: try #require(settings["thresholds"]))
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try decoder.decode(VerdictThresholds.self, from: written) == options.thresholds)
        withExtendedLifetime(serve) {}
        withExtendedLifetime(nginx) {}
    }

    @Test("min_realtime_factor is parsed once and strictly: a bad value is a usage error naming the option or the module and key")
    func badFactor() throws {
        let cli = try BufprobeProcess.run(["check", "--min-realtime-factor", "fast", BufprobeProcess.sample("h264-aac.mp4")])
        #expect(cli.status == 64, "\(cli.stderr)")
        #expect(cli.stderr.hasPrefix("error: --min-realtime-factor: 'fast' is not a real-time factor"), "\(cli.stderr)")
        let directory = try CheckServers.temporaryDirectory("bufprobe-realtime")
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("bufprobe.yml")
        try "modules:\n  gate:\n    min_realtime_factor: -1\n".write(to: config, atomically: true, encoding: .utf8)
        let result = try BufprobeProcess.run(["serve", "--config.file", config.path, "--config.check"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("module gate: min_realtime_factor: '-1' is not a real-time factor"), "\(result.stderr)")
    }

    static func probe(port: Int, _ url: String, module: String) throws -> String {
        let answer = try HTTPClient.get(
            port: port, "/probe?target=\(HTTPClient.encoded(url))&module=\(module)",
            headers: ["X-Prometheus-Scrape-Timeout-Seconds": "40"], timeout: 45)
        return answer.status == 200 ? answer.body : "HTTP \(answer.status): \(answer.body)"
    }

    static func document(_ json: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "\(json)")
    }
}
