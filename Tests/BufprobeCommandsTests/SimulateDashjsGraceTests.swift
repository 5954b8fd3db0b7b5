import Foundation
import Testing
import TestSupport

/// dash.js over a separate audio track keeps its variant to the end on a steady link: the player's buffer,
/// which ends on the audio Chromium plays past the video (the underflow grace), reaching past the video's
/// data is not a seek. A 60 s ladder written here (300k/800k/2000k video, 64k AAC audio, 2 s segments, each
/// exactly its declared size).
@Suite struct SimulateDashjsGraceTests {
    @Test(
        "on a steady link above the middle rung dash.js stays on it to the last segment: the grace is not taken for a seek that empties the video buffer",
        arguments: ["1.2Mbit", "1.5Mbit", "2Mbit"])
    func keepsItsVariantToTheEnd(bandwidth: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dashgrace-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let manifest = try Self.writeLadder(in: directory)
        let run = try BufprobeProcess.run(["simulate", manifest, "--player", "dashjs", "--bandwidth", bandwidth, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(report["stall_count"] as? Int == 0)
        let abr = try #require(report["abr"] as? [String: Any])
        // dash.js's default 1000 kbit/s picks 800k first; nothing in a steady link above it moves it.
        let switches = abr["switches"] as? [[String: Any]] ?? []
        #expect(switches.isEmpty, "\(switches)")
        let requests = report["request_log"] as? [[String: Any]] ?? []
        let video = requests.filter { $0["track"] as? String == "video" && $0["kind"] as? String == "segment" }
        #expect(video.count == 30)
        #expect(video.allSatisfy { $0["variant"] as? Int == 1 }, "\(video.map { $0["variant"] ?? "-" })")
        // One initialization segment for the video: no restart fetched one again.
        #expect(requests.filter { $0["track"] as? String == "video" && $0["kind"] as? String == "initialization" }.count == 1)
    }

    @Test("below the lowest rung dash.js's picture freezes longer than it stalls: the audio plays on alone, reported as frozen_picture_time and audio_alone events; Shaka, without the grace, reports none")
    func frozenPicture() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dashgrace-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let manifest = try Self.writeLadder(in: directory)
        let run = try BufprobeProcess.run(["simulate", manifest, "--player", "dashjs", "--bandwidth", "250k", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let stallTime = try #require(report["stall_time"] as? Double)
        let frozen = try #require(report["frozen_picture_time"] as? Double, "\(report.keys.sorted())")
        #expect((report["stall_count"] as? Int ?? 0) > 0)
        // Each stall follows up to 3 s of audio alone.
        #expect(frozen > stallTime + 1)
        let events = report["events"] as? [[String: Any]] ?? []
        let alone = events.filter { $0["type"] as? String == "audio_alone" }
        #expect(alone.count >= (report["stall_count"] as? Int ?? 0))
        let text = try BufprobeProcess.run(["simulate", manifest, "--player", "dashjs", "--bandwidth", "250k"])
        #expect(text.stdout.contains("frozen picture "), "\(text.stdout)")
        #expect(text.stdout.contains("picture freezes, audio plays on alone"))
        let shaka = try BufprobeProcess.run(["simulate", manifest, "--player", "shaka", "--bandwidth", "250k", "--json"])
        let shakaReport = try #require(try JSONSerialization.jsonObject(with: Data(shaka.stdout.utf8)) as? [String: Any])
        #expect(shakaReport["frozen_picture_time"] == nil)
    }

    /// Writes the ladder (`DASHTestLadder`, 30 segments, 60 s) into `directory` and returns the manifest's path.
    static func writeLadder(in directory: URL) throws -> String {
        try DASHTestLadder.write(in: directory, segments: 30)
    }
}
