import Foundation
import Synchronization
import Testing
import TestSupport

/// `check`'s verdict thresholds on real throttled streams: nginx on 127.0.0.1 serving a 40 s HLS stream
/// with chosen segments throttled (`StallingHLS`), so that one stream stalls once, briefly, and another
/// stalls three times.
@Suite("check's verdict thresholds on throttled nginx", .serialized)
struct CheckThresholdTests {
    static let gate = ["--max-stalls", "1", "--max-rebuffer-ratio", "0.05"]

    /// The JSON document of `check --json` with `arguments`, and its exit status.
    static func check(_ arguments: [String]) throws -> (status: Int32, document: [String: Any]) {
        let result = try BufprobeProcess.run(["check", "--json"] + arguments)
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
        return (result.status, document)
    }

    @Test("--max-stalls 1 --max-rebuffer-ratio 0.05 passes one short stall and fails three stalls, naming --max-stalls 1")
    func gatePassesOneFailsThree() throws {
        let streams = try StallingHLS()
        let runs = [Self.gate + [try streams.oneShortStall()], Self.gate + [try streams.threeStalls()], [try streams.oneShortStall()]]
        // The three checks at once, each on its own connection: about 20 s instead of 30.
        let results = Mutex<[Int: Result<(status: Int32, stdout: String, stderr: String), any Error>]>([:])
        DispatchQueue.concurrentPerform(iterations: runs.count) { index in
            let result = Result {
                let run = try BufprobeProcess.run(["check", "--json"] + runs[index])
                return (status: run.status, stdout: run.stdout, stderr: run.stderr)
            }
            results.withLock { $0[index] = result }
        }
        let outcome = { (index: Int) throws -> (status: Int32, document: [String: Any]) in
            let run = try #require(results.withLock { $0[index] }).get()
            let document = try #require(
                try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stderr)")
            return (run.status, document)
        }

        let one = try outcome(0)
        #expect(one.document["stall_count"] as? Int == 1, "\(one.document["reason"] ?? "")")
        #expect(one.status == 0, "\(one.document["reason"] ?? "")")
        #expect(one.document["verdict"] as? String == "pass")
        #expect((one.document["reason"] as? String)?.contains("stalled once for") == true, "\(one.document["reason"] ?? "")")
        #expect((one.document["reason"] as? String)?.contains("within --max-stalls 1 and --max-rebuffer-ratio 5%") == true)
        #expect((one.document["rebuffer_ratio"] as? Double ?? 1) < 0.05)

        let three = try outcome(1)
        #expect(three.document["stall_count"] as? Int == 3, "\(three.document["reason"] ?? "")")
        #expect(three.status == 1, "\(three.document["reason"] ?? "")")
        #expect(three.document["verdict"] as? String == "degraded")
        #expect((three.document["reason"] as? String)?.contains("stalled 3 times (more than --max-stalls 1)") == true, "\(three.document["reason"] ?? "")")
        let settings = try #require(three.document["settings"] as? [String: Any])
        let thresholds = try #require(settings["thresholds"] as? [String: Any])
        #expect(thresholds["max_stalls"] as? Int == 1)
        #expect(thresholds["max_rebuffer_ratio"] as? Double == 0.05)
        #expect(thresholds["max_stall_time"] is NSNull)
        #expect(thresholds["max_startup"] as? Double == 3)

        // Without thresholds, the one short stall is degraded as it always was.
        let strict = try outcome(2)
        #expect(strict.status == 1)
        #expect((strict.document["reason"] as? String)?.contains("stalled once for") == true)
        #expect(!((strict.document["reason"] as? String)?.contains("--max-stalls") ?? true))
    }

    @Test("a threshold that cannot be used is a usage error naming the option, exit 64", arguments: [
        (["--max-stalls", "-1"], "error: --max-stalls: '-1' is not a number of stalls; expected a whole number, 0 or more."),
        (["--max-rebuffer-ratio", "1.5"], "error: --max-rebuffer-ratio: '1.5' is not a rebuffer ratio; expected a fraction from 0 to 1 (0.05) or a percentage (5%)."),
        (["--max-rebuffer-ratio", "nan"], "error: --max-rebuffer-ratio: 'nan' is not a rebuffer ratio"),
        (["--max-stall-time", "-2s"], "error: --max-stall-time: '-2s' must not be negative"),
        (["--max-latency", "soon"], "error: --max-latency: 'soon' is not a duration"),
        (["--max-drift", "inf"], "error: --max-drift: 'inf' is not a duration"),
        (["--max-hole", "soon"], "error: --max-hole: 'soon' is not a duration"),
        (["--max-origin-faults", "lots"], "error: --max-origin-faults: 'lots' is not a number of origin faults; expected a whole number, 0 or more"),
        (["--min-realtime-factor", "-1"], "error: --min-realtime-factor: '-1' is not a real-time factor"),
        (["--max-peak-over-bandwidth", "lots"], "error: --max-peak-over-bandwidth: 'lots' is not a tolerance"),
    ])
    func badThreshold(arguments: [String], sentence: String) throws {
        let result = try BufprobeProcess.run(["check"] + arguments + [BufprobeProcess.sample("h264-aac.mp4")])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.hasPrefix(sentence), "\(result.stderr)")
    }

    @Test("a latency threshold on a stream with no live latency is a warning, not a silent pass")
    func latencyUnmeasured() throws {
        let result = try Self.check(["--max-latency", "10s", BufprobeProcess.sample("h264-aac.mp4")])
        #expect(result.status == 0)
        let warnings = result.document["warnings"] as? [String] ?? []
        #expect(warnings.contains { $0.hasPrefix("--max-latency 10.000 s was not applied: ") }, "\(warnings)")
    }

    @Test("--max-hole: samples/gap.ts's 3 s hole is degraded by default, passes at --max-hole 5s or none, and is named at 0.5s")
    func maxHole() throws {
        let file = BufprobeProcess.sample("gap.ts")
        let strict = try Self.check([file])
        #expect(strict.status == 1)
        #expect(strict.document["reason"] as? String == "\(file) has a 3.000 s hole in its media at 4.000 s.", "\(strict.document["reason"] ?? "")")
        for limit in ["5s", "none"] {
            let relaxed = try Self.check(["--max-hole", limit, file])
            #expect(relaxed.status == 0, "\(limit): \(relaxed.document["reason"] ?? "")")
        }
        let named = try Self.check(["--max-hole", "0.5s", file])
        #expect(named.status == 1)
        #expect((named.document["reason"] as? String)?.hasSuffix("hole in its media at 4.000 s (more than --max-hole 0.500 s).") == true, "\(named.document["reason"] ?? "")")
        let thresholds = (named.document["settings"] as? [String: Any])?["thresholds"] as? [String: Any]
        #expect(thresholds?["max_hole"] as? Double == 0.5)
    }

    @Test("--max-origin-faults: a master that mislabels a variant is degraded by default and passes at 1 or none, the pass naming the fault")
    func maxOriginFaults() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("faults-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: Samples.directory.appendingPathComponent("hls"), to: folder)
        let master = folder.appendingPathComponent("master.m3u8")
        let text = try String(contentsOf: master, encoding: .utf8)
        try text.replacingOccurrences(of: "RESOLUTION=640x360", with: "RESOLUTION=1280x720").write(to: master, atomically: true, encoding: .utf8)
        let base = ["--all-variants", "--rate", "8M", master.path]
        let strict = try Self.check(base)
        #expect(strict.status == 1)
        #expect((strict.document["reason"] as? String)?.contains("(variant 1: resolution_mismatch)") == true, "\(strict.document["reason"] ?? "")")
        for limit in ["1", "none"] {
            let relaxed = try Self.check(["--max-origin-faults", limit] + base)
            #expect(relaxed.status == 0, "\(limit): \(relaxed.document["reason"] ?? "")")
            #expect((relaxed.document["reason"] as? String)?.hasSuffix("(1 origin fault, within --max-origin-faults \(limit)).") == true, "\(relaxed.document["reason"] ?? "")")
        }
        let thresholds = (try Self.check(["--max-origin-faults", "none"] + base).document["settings"] as? [String: Any])?["thresholds"] as? [String: Any]
        #expect(thresholds?["max_origin_faults"] is NSNull)
    }
}
