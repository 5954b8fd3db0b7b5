import Foundation
import Testing
import TestSupport

/// A session that never started has no rebuffer ratio: `null` in JSON and "never started" in text, in
/// simulate and check (serve leaves the metric out: ProbeMetricsTests), never a perfect 0 %.
@Suite("Never started is never 0 %")
struct NeverStartedTests {
    @Test("simulate over a network that never delivers: rebuffer_ratio null, and the text says never started, not 0.00%")
    func simulateNeverStarted() throws {
        let directory = try CheckServers.temporaryDirectory("bufprobe-never")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("zero.txt")
        try "0 0\n1 0\n".write(to: trace, atomically: true, encoding: .utf8)
        let arguments = ["simulate", "--bitrate", "1Mbit", "--duration", "10s", "--trace", trace.path]
        let json = try BufprobeProcess.run(arguments + ["--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(document["started"] as? Bool == false)
        #expect(document["rebuffer_ratio"] is NSNull, "\(document["rebuffer_ratio"] ?? "absent")")
        let text = try BufprobeProcess.run(arguments + ["--progress", "none"])
        #expect(text.stdout.contains("no rebuffer ratio (never started)"), "\(text.stdout)")
        #expect(!text.stdout.contains("0.00%"), "\(text.stdout)")
    }

    @Test("simulate --trace-dir: a trace that never started is 'never' in the table and left out of the mean")
    func batchLeavesItOut() throws {
        let directory = try CheckServers.temporaryDirectory("bufprobe-never-dir")
        defer { try? FileManager.default.removeItem(at: directory) }
        try "0 0\n1 0\n".write(to: directory.appendingPathComponent("a-zero.txt"), atomically: true, encoding: .utf8)
        try "0 5\n".write(to: directory.appendingPathComponent("b-fast.txt"), atomically: true, encoding: .utf8)
        let result = try BufprobeProcess.run(
            ["simulate", "--bitrate", "1Mbit", "--duration", "10s", "--trace-dir", directory.path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let totals = try #require(document["totals"] as? [String: Any])
        #expect(totals["mean_rebuffer_ratio"] as? Double == 0, "the fast trace's 0 alone: \(totals)")
        let text = try BufprobeProcess.run(["simulate", "--bitrate", "1Mbit", "--duration", "10s", "--trace-dir", directory.path])
        #expect(text.stdout.split(separator: "\n").contains { $0.hasPrefix("a-zero.txt") && $0.hasSuffix("never") }, "\(text.stdout)")
    }

    @Test("check of a stream whose start never arrives: rebuffer_ratio null and 'playback never started'")
    func checkNeverStarted() throws {
        // 4000 bytes per second: the 8 kB index opens after about 2 s, and the first second of media (about
        // 27 kB) does not arrive in the 5 s sampled.
        let server = try NginxServer(rates: [4000])
        let url = server.url("h264-aac.mp4", bytesPerSecond: 4000)
        let result = try BufprobeProcess.run(["check", "--json", "--duration", "5s", "--timeout", "10s", url])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
        #expect(document["startup_delay"] is NSNull)
        #expect(document["rebuffer_ratio"] is NSNull, "\(document["rebuffer_ratio"] ?? "absent")")
        #expect((document["reason"] as? String)?.contains("did not start") == true, "\(document["reason"] ?? "")")
    }
}
