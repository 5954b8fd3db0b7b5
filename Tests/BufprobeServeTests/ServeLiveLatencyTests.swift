import BufprobeServe
import CheckEngine
import Foundation
import Testing
import TestSupport

/// Issue 22: `serve` exposes the latency to the live edge of a real live HLS source (ffmpeg -re behind
/// nginx), with `live_start` steering where it starts. One probe runs against the real source; the rules
/// behind each metric run by replay: the live origins recorded once as check's event fixtures
/// (`Tests/Fixtures/events/`, `EventFixtureRecorder`) go through serve's own path in virtual time (the
/// query parsed by `ProbeRequest`, the default module applied, the check machine, `ProbeMetrics`).
@Suite("serve: live latency metrics")
struct ServeLiveLatencyTests {
    /// The value of the sample `name` (with its labels as written, e.g. `{stat="mean"}`) in `text`.
    static func value(_ name: String, in text: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    /// The metrics `/probe?target=<the fixture's URL>&<query>` answers when the origin behaves as fixture
    /// `name` recorded it: serve's request parsing and default module, then the recorded events through the
    /// check machine in virtual time.
    static func replayedMetrics(_ name: String, query: String) throws -> String {
        let file = BufprobeProcess.packageRoot.appendingPathComponent("Tests/Fixtures/events/\(name).jsonl")
        let (header, events) = try CheckReplay.read(try String(contentsOf: file, encoding: .utf8))
        let request = try ProbeRequest(query: "target=\(HTTPClient.encoded(header.source))&\(query)", scrapeTimeout: nil)
        var settings = request.settings
        ProbeModule.builtIn.apply(
            to: &settings, share: request.share, requestedTimeout: request.requestedTimeout,
            requestedDuration: request.requestedDuration)
        let report = CheckReplay.report(events, source: header.source, settings: settings)
        return ProbeMetrics.exposition(of: report, probeSeconds: 0)
    }

    @Test("end to end: a live HLS target answers bufprobe_live_latency_seconds near its hold-back; a bad live_start is refused")
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
        let refused = try HTTPClient.get(port: serve.port, "/probe?target=\(target)&live_start=soon", timeout: 30)
        #expect(refused.status == 400 && refused.body.contains("live_start"), "\(refused.body)")
    }

    @Test("replayed live HLS: the latency near its hold-back, its summary, edge delay, hold-back and drift; live_start=edge starts two segments closer")
    func latencyMetricsReplayed() throws {
        let text = try Self.replayedMetrics("hls-live", query: "duration=5s")
        let latency = try #require(Self.value("bufprobe_live_latency_seconds", in: text), "\(text)")
        let holdBack = try #require(Self.value("bufprobe_live_hold_back_seconds", in: text))
        #expect(abs(holdBack - 6) < 0.01)
        #expect(latency >= 6 && latency < 8.5, "\(latency)")
        #expect(Self.value(#"bufprobe_live_latency_stat_seconds{stat="mean"}"#, in: text) != nil, "\(text)")
        #expect(Self.value("bufprobe_live_edge_delay_seconds", in: text) != nil)
        #expect(Self.value("bufprobe_live_latency_drift_seconds", in: text) != nil)

        let edge = try Self.replayedMetrics("hls-live-edge", query: "duration=4s&live_start=edge")
        let edgeHoldBack = try #require(Self.value("bufprobe_live_hold_back_seconds", in: edge), "\(edge)")
        #expect(abs(edgeHoldBack - 2) < 0.01)
        let edgeLatency = try #require(Self.value("bufprobe_live_latency_seconds", in: edge))
        #expect(edgeLatency < latency - 2, "edge \(edgeLatency) s, hold-back \(latency) s")
    }

    @Test("replayed LL-HLS: blocking reloads, part times and problems; the twin that ignores blocking reloads reads ignored > 0 and degraded", arguments: ["llhls", "llhls-ignore-blocking"])
    func lowLatencyMetrics(fixture: String) throws {
        let text = try Self.replayedMetrics(fixture, query: "duration=8s")
        let held = try #require(Self.value(#"bufprobe_llhls_blocking_reloads{result="held"}"#, in: text), "\(text)")
        let ignored = try #require(Self.value(#"bufprobe_llhls_blocking_reloads{result="ignored"}"#, in: text))
        #expect(Self.value("bufprobe_llhls_part_hold_back_seconds", in: text) == 1)
        #expect(Self.value(#"bufprobe_llhls_problems{kind="blocking_reload_ignored"}"#, in: text) == ignored)
        let latency = try #require(Self.value("bufprobe_live_latency_seconds", in: text))
        if fixture == "llhls" {
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
