import Foundation
import Testing
import TestSupport

/// `check` on a live LL-HLS origin (`llhls_origin.py`: real media cut by ffmpeg into 0.4 s fMP4 parts,
/// 2.4 s segments, PART-HOLD-BACK 1.0, blocking reloads) and on its faulty twins. The first origin encodes
/// 24 s of the sample (a few seconds), kept under `.build/test-cache` for the others; the tests run side by side.
@Suite("bufprobe check on a low-latency HLS origin")
struct CheckLowLatencyTests {
    /// What a check of one origin gave.
    struct Outcome {
        var status: Int32
        var verdict: String
        var reason: String
        var warnings: [String]
        var lowLatency: [String: Any]?
        var liveLatency: [String: Any]?
        var counts: [String: Int] { (lowLatency?["counts"] as? [String: Int]) ?? [:] }
        var stderr: String
    }

    /// Where the origins keep their encoding of the sample between tests and runs (under `.build`).
    static let cache = TestCache.folder.path

    /// Starts the origin with `fault` and checks its playlist (`path`) for `seconds`.
    static func check(fault: String?, path: String = "live.m3u8", seconds: Int = 8, extra: [String] = []) throws -> Outcome {
        let origin = try FixtureServer(
            script: "llhls_origin.py",
            arguments: ["--sample", BufprobeProcess.sample("h264-aac.mp4"), "--seconds", "24", "--cache", Self.cache]
                + (fault.map { ["--fault", $0] } ?? []))
        let result = try BufprobeProcess.run(
            ["check", "--json", "--duration", "\(seconds)"] + extra + ["http://127.0.0.1:\(origin.port)/\(path)"], timeout: 60)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)\n\(result.stderr)")
        return Outcome(
            status: result.status, verdict: object["verdict"] as? String ?? "", reason: object["reason"] as? String ?? "",
            warnings: object["warnings"] as? [String] ?? [], lowLatency: object["low_latency"] as? [String: Any],
            liveLatency: object["live_latency"] as? [String: Any], stderr: result.stderr)
    }

    @Test("the good origin passes with no LL-HLS problem: every blocking reload held, parts played, started about PART-HOLD-BACK from the edge")
    func goodOriginPasses() throws {
        let outcome = try Self.check(fault: nil)
        #expect(outcome.verdict == "pass", "\(outcome.reason)")
        let section = try #require(outcome.lowLatency, "no low_latency section")
        #expect(outcome.counts.values.allSatisfy { $0 == 0 }, "\(outcome.counts) \(outcome.warnings)")
        #expect(outcome.warnings.isEmpty, "\(outcome.warnings)")
        try LowLatencyExpectations.healthy(section)
        // The latency is the low-latency one (parts' program date-times against the packets): at least
        // PART-HOLD-BACK (1.0 s); at most that plus 2 part targets (0.8 s: the start goes back to an INDEPENDENT
        // part, one in two), plus 1 part target (0.4 s: the newest part's age when the first playlist was read,
        // a read that does not block), plus 0.3 s to fetch the parts and open the demuxer on a busy machine.
        let latency = try #require(outcome.liveLatency, "no live_latency")
        let average = try #require(latency["mean"] as? Double)
        #expect(average >= 1.0 && average <= 1.0 + 0.8 + 0.4 + 0.3, "\(latency)")
        let holdBack = latency["hold_back"] as? [String: Any]
        #expect(holdBack?["rule"] as? String == "PART-HOLD-BACK", "\(latency)")
        #expect(holdBack?["target"] as? Double == 1.0, "\(latency)")
    }

    @Test("a part that never ends fails the check within seconds, naming the part")
    func endlessPart() throws {
        let began = ContinuousClock.now
        let outcome = try Self.check(fault: "endless-part", seconds: 20, extra: ["--timeout", "2"])
        #expect(ContinuousClock.now - began < .seconds(30))
        #expect(outcome.verdict == "fail", "\(outcome.reason)")
        // Each read of the part may take half --timeout (ResourceReader), so the fetch fails first and the
        // stream ends; a trickle fast enough for that would meet the 32 MiB part limit.
        #expect(outcome.reason.contains(".3.m4s could not be fetched") || outcome.reason.contains("was still arriving"), "\(outcome.reason)")
    }

    @Test("--no-low-latency plays the stream as FFmpeg does: no low_latency section; --deny-private refuses it before any LL-HLS request; a master's best variant is played part by part; --live-start edge starts at the newest INDEPENDENT part")
    func optOutAndMaster() throws {
        let edge = try Self.check(fault: nil, seconds: 3, extra: ["--live-start", "edge"])
        let behind = try #require(edge.lowLatency?["start_behind_edge"] as? Double, "\(edge.reason)")
        #expect(behind <= 0.8 + 1e-6, "\(behind)")
        let plain = try Self.check(fault: nil, seconds: 4, extra: ["--no-low-latency"])
        #expect(plain.lowLatency == nil)
        #expect(plain.verdict != "fail", "\(plain.reason)")
        // Under --deny-private the loopback origin is refused before any LL-HLS request goes out.
        let denied = try Self.check(fault: nil, seconds: 2, extra: ["--deny-private"])
        #expect(denied.lowLatency == nil)
        #expect(denied.verdict == "fail", "\(denied.reason)")
        let master = try Self.check(fault: nil, path: "master.m3u8", seconds: 4)
        let section = try #require(master.lowLatency, "\(master.reason)")
        #expect((section["playlist"] as? String)?.hasSuffix("/live.m3u8") == true, "\(section)")
    }
}
