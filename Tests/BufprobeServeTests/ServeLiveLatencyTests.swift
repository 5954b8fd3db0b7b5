import Foundation
import Testing
import TestSupport

/// Issue 22: `serve` exposes the latency to the live edge of a real live HLS source (ffmpeg -re behind
/// nginx), with `live_start` steering where it starts.
@Suite("serve: live latency metrics")
struct ServeLiveLatencyTests {
    /// The value of the sample `name` (with its labels as written, e.g. `{stat="mean"}`) in `text`.
    static func value(_ name: String, in text: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    @Test("a live HLS target answers bufprobe_live_latency_seconds near its hold-back, its summary, edge delay, hold-back and drift; live_start=edge starts closer")
    func latencyMetrics() throws {
        let source = try LiveHLSSource()
        _ = try source.freshPlaylist(listing: 4)
        let serve = try ServeProcess()
        let target = HTTPClient.encoded(source.url)
        let answer = try HTTPClient.get(port: serve.port, "/probe?target=\(target)&duration=4s", timeout: 30)
        #expect(answer.status == 200)
        let text = answer.body
        let latency = try #require(Self.value("bufprobe_live_latency_seconds", in: text), "\(text)")
        let holdBack = try #require(Self.value("bufprobe_live_hold_back_seconds", in: text))
        // 2 s segments and no HOLD-BACK: three target durations, plus the edge segment's age (under 2 s).
        #expect(abs(holdBack - 6) < 0.01)
        #expect(latency >= 6 && latency < 8.5, "\(latency)")
        #expect(Self.value(#"bufprobe_live_latency_summary_seconds{stat="mean"}"#, in: text) != nil, "\(text)")
        #expect(Self.value("bufprobe_live_edge_delay_seconds", in: text) != nil)
        #expect(Self.value("bufprobe_live_latency_drift_seconds", in: text) != nil)

        let edge = try HTTPClient.get(port: serve.port, "/probe?target=\(target)&duration=3s&live_start=edge", timeout: 30)
        let edgeHoldBack = try #require(Self.value("bufprobe_live_hold_back_seconds", in: edge.body), "\(edge.body)")
        #expect(abs(edgeHoldBack - 2) < 0.01)
        let refused = try HTTPClient.get(port: serve.port, "/probe?target=\(target)&live_start=soon", timeout: 30)
        #expect(refused.status == 400 && refused.body.contains("live_start"), "\(refused.body)")
    }

    @Test("an LL-HLS target answers its blocking reloads, part times and problems; a twin that ignores blocking reloads reads ignored > 0 and degraded", arguments: [nil, "ignore-blocking"] as [String?])
    func lowLatencyMetrics(fault: String?) throws {
        let origin = try FixtureServer(
            script: "llhls_origin.py",
            arguments: ["--sample", BufprobeProcess.sample("h264-aac.mp4"), "--seconds", "24", "--cache",
                        BufprobeProcess.packageRoot.appendingPathComponent(".build/test-cache").path]
                + (fault.map { ["--fault", $0] } ?? []))
        let serve = try ServeProcess()
        let target = HTTPClient.encoded("http://127.0.0.1:\(origin.port)/live.m3u8")
        let text = try HTTPClient.get(port: serve.port, "/probe?target=\(target)&duration=5s", timeout: 40).body
        let held = try #require(Self.value(#"bufprobe_llhls_blocking_reloads{result="held"}"#, in: text), "\(text)")
        let ignored = try #require(Self.value(#"bufprobe_llhls_blocking_reloads{result="ignored"}"#, in: text))
        #expect(Self.value("bufprobe_llhls_part_hold_back_seconds", in: text) == 1)
        #expect(Self.value(#"bufprobe_llhls_problems{kind="blocking_reload_ignored"}"#, in: text) == ignored)
        let latency = try #require(Self.value("bufprobe_live_latency_seconds", in: text))
        if fault == nil {
            #expect(held > 0 && ignored == 0, "\(text)")
            #expect(Self.value(#"bufprobe_verdict{verdict="pass"}"#, in: text) == 1, "\(text)")
            // Part by part: near PART-HOLD-BACK (1 s), far below the whole-segment latency (about 10 s).
            #expect(latency < 3, "\(latency)")
            #expect(Self.value(#"bufprobe_llhls_blocking_reload_seconds{stat="max"}"#, in: text) != nil)
        } else {
            #expect(ignored > 0, "\(text)")
            #expect(Self.value(#"bufprobe_verdict{verdict="degraded"}"#, in: text) == 1, "\(text)")
        }
    }
}
