import Foundation
import PlaybackModel
import Testing

@Suite("QoEReport")
struct QoEReportTests {
    @Test("the report encodes with snake_case keys, derived counts included, and decodes back")
    func json() throws {
        var player = Player(duration: .finite(10), timeObserverInterval: nil, now: 0)
        _ = player.loaded(TimeRange(start: 0, end: 2), now: 0.5)
        _ = player.advance(to: 3)
        _ = player.loaded(TimeRange(start: 2, end: 10), now: 4)
        _ = player.advance(to: 20)
        let report = player.report
        #expect(report.startupDelay == 0.5)
        #expect(report.stalls == [QoEReport.Stall(position: 2, start: 2.5, duration: 1.5)])
        #expect(report.ended)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(report), as: UTF8.self)
        for key in [
            "\"startup_delay\":0.5", "\"stall_count\":1", "\"stall_time\":1.5", "\"rebuffer_ratio\"",
            "\"stalls\":[{\"duration\":1.5,\"position\":2,\"start\":2.5}]", "\"seeks\":[]", "\"played\":10",
            "\"paused_time\":0", "\"ended\":true", "\"seek_wait_time\"", "\"played_wall_time\":10",
        ] {
            #expect(text.contains(key), "missing \(key) in \(text)")
        }
        #expect(try JSONDecoder().decode(QoEReport.self, from: Data(text.utf8)) == report)
    }

    @Test("rebuffer ratio is stall time over stall plus played time, and none at all before playback started")
    func rebufferRatio() {
        var report = QoEReport()
        #expect(report.rebufferRatio == nil)
        report.started = true
        #expect(report.rebufferRatio == 0)
        report.stallTime = 1
        report.playedWallTime = 3
        #expect(report.rebufferRatio == 0.25)
    }

    @Test("a session that never started encodes its rebuffer ratio as null, never as 0")
    func neverStartedHasNoRatio() throws {
        var player = Player(duration: .finite(10), timeObserverInterval: nil, now: 0)
        _ = player.advance(to: 30)
        #expect(!player.report.started)
        let text = String(decoding: try JSONEncoder().encode(player.report), as: UTF8.self)
        #expect(text.contains("\"rebuffer_ratio\":null"), "\(text)")
    }

    @Test("media duration encodes as seconds or a word")
    func mediaDurationJSON() throws {
        let values: [MediaDuration] = [.finite(1.5), .unknown, .unbounded]
        let data = try JSONEncoder().encode(values)
        #expect(String(decoding: data, as: UTF8.self) == "[1.5,\"unknown\",\"unbounded\"]")
        #expect(try JSONDecoder().decode([MediaDuration].self, from: data) == values)
    }
}
