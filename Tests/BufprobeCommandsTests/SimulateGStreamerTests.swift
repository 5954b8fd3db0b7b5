import Foundation
import Testing
import TestSupport

/// `simulate --player gstreamer` runs GStreamer 1.22's hlsdemux2 ABR and start rule over a ladder without
/// `--abr`. The ladder is `writeLadder`'s: 2M, 500k, 1M listed in that order, 2 s segments of rate x 2 s.
@Suite struct SimulateGStreamerTests {
    static func size(_ path: String) throws -> Int64 {
        try #require((try FileManager.default.attributesOfItem(atPath: path))[.size] as? NSNumber).int64Value
    }

    @Test("--player gstreamer starts on the first-listed 2M, drops to the highest BANDWIDTH under 0.8 x 1.2 Mbit/s, and plays at 3 s buffered")
    func ladderEndToEnd() throws {
        let master = try writeLadder(segments: 10)
        let directory = (master as NSString).deletingLastPathComponent
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try BufprobeProcess.run(["simulate", master, "--player", "gstreamer", "--bandwidth", "1.2Mbit", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let abr = try #require(report["abr"] as? [String: Any])
        #expect(abr["rule"] as? String == "gstreamer")
        #expect((abr["model"] as? [String: Any])?["target_ratio"] as? Double == 0.8)
        #expect(abr["abandon"] as? Bool == false)
        // Segment 0 at 2M (500 kB: 3.333 s at 1.2 Mbit/s), a 1.2 Mbit/s sample: 0.96 Mbit/s admits 500k
        // only (1M > 0.96M), from segment 1 on; 2 s buffered is under the 3 s watermark, so playback
        // starts when segment 1 (125 kB, 0.833 s) is in: 4 s buffered. Before all of it, the master and
        // the first-listed media playlist come over the same link.
        let playlists = try Self.size(master) + Self.size((directory as NSString).appendingPathComponent("v0.m3u8"))
        let expected = Double(playlists) * 8 / 1_200_000 + 500_000 * 8 / 1_200_000.0 + 125_000 * 8 / 1_200_000.0
        #expect(abs((report["startup_delay"] as? Double ?? 0) - expected) < 0.002, "\(report["startup_delay"] ?? "-") vs \(expected)")
        let switches = try #require(abr["switches"] as? [[String: Any]])
        #expect(switches.map { [$0["segment"] as? Int, $0["from"] as? Int, $0["to"] as? Int] } == [[1, 0, 1]])
        #expect(report["stall_count"] as? Int == 0)
        #expect(report["ended"] as? Bool == true)
    }

    @Test("--player gstreamer pauses on an empty buffer and resumes only with 3 s buffered, not at the next 2 s segment")
    func stallResumesAtWatermark() throws {
        let master = try writeLadder(rates: [500_000, 1_000_000], segments: 10)
        let directory = (master as NSString).deletingLastPathComponent
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try BufprobeProcess.run(["simulate", master, "--player", "gstreamer", "--bandwidth", "200kbit", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        // Every 125 kB 500k segment takes 5 s at 0.2 Mbit/s (0.16 Mbit/s admits nothing higher) and plays
        // 2 s. After the playlists (d s): segment k is in at d + 5(k + 1). Start with 4 s at d + 10; empty at
        // d + 14 with segment 2 due at d + 15, whose 2 s are under 3 s: resume at d + 20 with 4 s. So
        // a 6 s stall at playhead 4, 8 and 12, and one at 16 (segment 8's 2 s at d + 45 are not enough,
        // segment 9, the last, comes at d + 50).
        let playlists = try Self.size(master) + Self.size((directory as NSString).appendingPathComponent("v0.m3u8"))
        let delay = Double(playlists) * 8 / 200_000
        #expect(abs((report["startup_delay"] as? Double ?? 0) - (delay + 10)) < 0.002)
        let stalls = try #require(report["stalls"] as? [[String: Any]])
        #expect(stalls.map { ($0["position"] as? Double ?? -1).rounded() } == [4, 8, 12, 16])
        for stall in stalls { #expect(abs((stall["duration"] as? Double ?? 0) - 6) < 0.002, "\(stall)") }
        let abr = try #require(report["abr"] as? [String: Any])
        #expect((abr["switches"] as? [[String: Any]])?.isEmpty == true)
        #expect(report["ended"] as? Bool == true)
    }
}
