import Foundation
import Testing
import TestSupport

/// `check`'s live thresholds on a real live HLS source (`ffmpeg -re`, 2 s segments with
/// `EXT-X-PROGRAM-DATE-TIME`, served by nginx on 127.0.0.1), started where players start: about 6 s behind
/// the live edge.
@Suite("check's live latency thresholds on a live HLS source")
struct CheckLiveThresholdTests {
    @Test("--max-latency judges a live stream's latency to the edge (hold-back: about 6 s) and --max-drift its growth; both reach the JSON")
    func liveLatency() throws {
        let source = try LiveHLSSource()
        _ = try source.freshPlaylist(listing: 4)
        let late = try CheckThresholdTests.check(["--duration", "4s", "--progress", "none", "--max-latency", "2s", "--max-drift", "30s", source.url])
        #expect(late.status == 1, "\(late.document["reason"] ?? "")")
        let reason = late.document["reason"] as? String ?? ""
        #expect(reason.contains("behind the live edge (more than --max-latency 2.000 s)"), "\(reason)")
        #expect(!reason.contains("--max-drift"), "\(reason)")
        let latency = try #require(late.document["live_latency"] as? [String: Any])
        #expect((latency["max"] as? Double ?? 0) > 2)
        let thresholds = try #require((late.document["settings"] as? [String: Any])?["thresholds"] as? [String: Any])
        #expect(thresholds["max_latency"] as? Double == 2)
        #expect(thresholds["max_drift"] as? Double == 30)
        let within = try CheckThresholdTests.check(["--duration", "4s", "--progress", "none", "--max-latency", "30s", source.url])
        #expect(within.status == 0, "\(within.document["reason"] ?? "")")
    }

}
