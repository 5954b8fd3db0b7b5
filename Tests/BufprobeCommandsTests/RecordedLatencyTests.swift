import Foundation
import Testing
import TestSupport

/// `check --record-trace` records each request's latency, on an HLS stream from `fault_server.py` whose
/// every response head is held back by a known delay (`/slowhead/<ms>/`).
@Suite("check --record-trace latency")
struct RecordedLatencyTests {
    /// The delay before each response head, ms.
    static let delay = 250.0
    /// What the loopback, FFmpeg's open and a busy machine may add to it, ms (the delay is a lower bound:
    /// the server sleeps before it answers).
    static let tolerance = 250.0

    @Test("the sabre trace's latency_ms is the server's head delay (within +250 ms), and simulate --trace reads it")
    func headDelayRecorded() throws {
        let server = try FaultServer()
        let directory = try CheckServers.temporaryDirectory("bufprobe-latency")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("trace.json").path
        let checked = try BufprobeProcess.run([
            "check", "--json", "--record-trace", trace, "--trace-format", "sabre",
            server.url("slowhead/\(Int(Self.delay))/hls/low/index.m3u8"),
        ])
        #expect(checked.status == 0 || checked.status == 1, "\(checked.stderr)")
        struct Step: Decodable {
            var duration_ms: Double
            var bandwidth_kbps: Double
            var latency_ms: Double?
        }
        let steps = try JSONDecoder().decode([Step].self, from: Data(contentsOf: URL(fileURLWithPath: trace)))
        #expect(!steps.isEmpty)
        let latencies = steps.compactMap(\.latency_ms)
        #expect(latencies.count == steps.count, "every step carries latency_ms once a request was timed")
        for latency in Set(latencies) {
            #expect(latency >= Self.delay - 1 && latency <= Self.delay + Self.tolerance, "latency_ms \(latency)")
        }
        // Waiting for a head is not also low throughput: no step of the replay carries nothing.
        #expect(steps.allSatisfy { $0.bandwidth_kbps > 0 }, "\(steps.map(\.bandwidth_kbps))")
        let simulated = try BufprobeProcess.run([
            "simulate", CheckServers.samples + "/hls/low/index.m3u8", "--trace", trace, "--json",
        ])
        #expect(simulated.status == 0 || simulated.status == 1, "\(simulated.stderr)")
    }
}
