import BufprobeCommands
import Foundation
import Testing
import TestSupport

/// `simulate --player vlc` on `writeLadder`'s HLS ladder (2M, 500k, 1M listed in that order, 2 s
/// segments): VLC 3.0's NearOptimal picks the lowest variant first and the highest after, and es_out's
/// clock starts on one whole segment.
@Suite struct SimulateVLCTests {
    @Test("--player vlc: the first segment at the lowest variant (500k), every later one at the highest (2M) even on a 1 Mbit/s link, playing from the first whole segment and stalling")
    func lowestThenHighest() throws {
        let master = try writeLadder(segments: 10)
        defer { try? FileManager.default.removeItem(atPath: (master as NSString).deletingLastPathComponent) }
        let run = try BufprobeProcess.run(["simulate", master, "--player", "vlc", "--bandwidth", "1Mbit", "--json"])
        #expect(run.status == 0 || run.status == 1, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let abr = try #require(report["abr"] as? [String: Any])
        #expect(abr["rule"] as? String == "vlc")
        // One switch: segment 1 from the listed-second 500k (master index 1) to the listed-first 2M (index 0).
        let switches = try #require(abr["switches"] as? [[String: Any]])
        #expect(switches.map { [$0["segment"] as? Int, $0["from"] as? Int, $0["to"] as? Int] } == [[1, 1, 0]])
        // Segment 0: 125 kB at 1 Mbit/s, 1 s; its media counts once it is whole, and the clock starts on it.
        let startup = try #require(report["startup_delay"] as? Double)
        #expect(startup >= 1 && startup < 1.1, "\(startup)")
        // Then 2 s of media per 4 s of link: a stall at every segment.
        #expect((report["stall_count"] as? Int ?? 0) >= 3)
        #expect((report["policy"] as? [String: Any])?["player"] as? String == "vlc")
        #expect((abr["model"] as? [String: Any])?["moving_average_window"] as? Double == 10)
    }
}
