import BufprobeCommands
import Foundation
import Testing
import TestSupport

/// `simulate --player dashjs|shaka --json` end to end on a small DASH ladder written here: video at
/// 300k/800k/2000k declared, each segment exactly its declared size (2 s: 75,000, 200,000 and 500,000
/// bytes), 1,000-byte initialization segments, an AAC audio set at 48 kHz, `minBufferTime` 4 s, 5 segments.
@Suite struct SimulateDashShakaTests {
    @Test("dash.js starts at 800k (1000 kbit/s default), abandons it at 0.4 Mbit/s once 500 ms passed for 300k, and holds there")
    func dashjs() throws {
        let manifest = try writeManifest()
        defer { try? FileManager.default.removeItem(atPath: (manifest as NSString).deletingLastPathComponent) }
        let (run, report) = try simulateJSON([manifest, "--player", "dashjs", "--bandwidth", "400k"])
        #expect(run.status == 0, "\(run.stderr)")
        let abr = try #require(report?["abr"] as? [String: Any])
        #expect(abr["rule"] as? String == "dashjs")
        // The audio set's requests share the link (half each while both flow). init-1 and the audio's init
        // (0.04 s), then segment 0 at 800k, judged every 50 ms: at 0.59 s, past 500 ms, 13,749 bytes came
        // (200 kbit/s), so the whole 200,000 would take 8 s >= 1.8 x 2 s: down to 300k. Its init and 75,000
        // bytes end at 2.475 s; meanwhile dash.js fetches audio segments 0 and 1 only (16,000 bytes each; 2 s
        // less one AAC frame is below max(video level 0 + 1 s, 2 s), 4 s less a frame is not).
        // All of it after dash.js's start: the manifest over the same 400 kbit/s link, then 68 ms of
        // processing before the first media request (`DashjsProfile.startDelay`).
        let manifestBytes = try #require(try FileManager.default.attributesOfItem(atPath: manifest)[.size] as? NSNumber).doubleValue
        let start = manifestBytes * 8 / 400_000 + 0.068
        let switches = try #require(abr["switches"] as? [[String: Any]])
        #expect(switches.map { [$0["segment"] as? Int, $0["from"] as? Int, $0["to"] as? Int] } == [[0, 1, 0]])
        #expect(abs((report?["startup_delay"] as? Double ?? 0) - (2.475 + start)) < 0.01)
        #expect(report?["stall_count"] as? Int == 0)
        let firstRequest = (report?["request_log"] as? [[String: Any]])?.compactMap { $0["start"] as? Double }.min() ?? 0
        #expect(abs(firstRequest - start) < 1e-9, "\(firstRequest) \(start)")
        let audio = (report?["request_log"] as? [[String: Any]])?.filter {
            $0["track"] as? String == "audio" && $0["segment"] is Int && ($0["start"] as? Double ?? 0) < 2.475 + start
        }
        #expect(audio?.count == 2)
    }

    @Test("Shaka starts at 800k (1.5 Mbit/s default) and waits for minBufferTime plus an AAC frame; under 1.28 Mbit/s it never switches, above it switches at its first good estimate")
    func shaka() throws {
        let manifest = try writeManifest()
        defer { try? FileManager.default.removeItem(atPath: (manifest as NSString).deletingLastPathComponent) }
        let (run, slow) = try simulateJSON([manifest, "--player", "shaka", "--bandwidth", "800k"])
        #expect(run.status == 0, "\(run.stderr)")
        let policy = try #require(slow?["policy"] as? [String: Any])
        #expect(abs((policy["start_threshold"] as? Double ?? 0) - (4 + 1024 / 48000.0)) < 1e-9)
        #expect(policy["stall_level"] as? Double == 0.5)
        let abr = try #require(slow?["abr"] as? [String: Any])
        #expect(abr["rule"] as? String == "shaka")
        // 10 kB per 100 ms never makes a sample: 800k throughout; 3 segments (6 s > 4.021 s, 600,000 bytes)
        // and init-1, beside the audio set's init and the 3 segments it needs (49,000 bytes: Shaka's
        // run-ahead limit holds the audio within 2 s of the video's data, so it does not fetch all 5 first):
        // 650,000 bytes at 800 kbit/s, 6.50 s.
        #expect((abr["switches"] as? [[String: Any]])?.isEmpty == true)
        #expect(abs((slow?["startup_delay"] as? Double ?? 0) - 6.50) < 0.01)
        #expect(slow?["stall_count"] as? Int == 0)
        // At 4 Mbit/s 50 kB per 100 ms: 150 kB sampled 0.3 s into segment 0, 4 Mbit/s >= 2000k / 0.95.
        let (_, fast) = try simulateJSON([manifest, "--player", "shaka", "--bandwidth", "4Mbit"])
        let fastSwitches = (fast?["abr"] as? [String: Any])?["switches"] as? [[String: Any]]
        #expect(fastSwitches?.map { [$0["segment"] as? Int, $0["from"] as? Int, $0["to"] as? Int] } == [[1, 1, 2]])
    }
}

/// Writes the ladder (`DASHTestLadder`, 5 segments) into a new temporary folder and returns the manifest's path.
private func writeManifest() throws -> String {
    try DASHTestLadder.write(
        in: FileManager.default.temporaryDirectory.appendingPathComponent("dashshaka-\(UUID().uuidString)"), segments: 5)
}

/// Runs `bufprobe simulate ... --json` and reads the report as JSON objects.
private func simulateJSON(_ arguments: [String]) throws -> (BufprobeProcess.Result, [String: Any]?) {
    let result = try BufprobeProcess.run(["simulate"] + arguments + ["--json"])
    return (result, try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
}
