import CheckEngine
import Foundation
import Testing
import TestSupport

/// The live suites' rules on recorded origins (`EventFixture`), replayed in virtual time: each replay
/// gives its recorded run's `--json` document byte for byte, and the rules hold on it as on the real
/// origin (`CheckLiveLatencyTests`, `CheckLowLatencyTests`, `CheckDASHLiveTests` and
/// `CheckPlaylistHealthTests` keep one real-time run each).
@Suite("check's rules on recorded live origins, replayed")
struct CheckEventReplayTests {
    @Test("every fixture replays to its recorded run's JSON, byte for byte", arguments: EventFixture.all)
    func replayIsTheRecordedRun(name: String) throws {
        let fixture = try EventFixture(name)
        #expect(try fixture.replayedJSON() == fixture.recorded)
    }

    @Test("check --replay-events prints the recorded run's JSON; another URL than the recorded one is refused")
    func replayFromTheCommandLine() throws {
        let fixture = try EventFixture("llhls")
        let events = EventFixture.directory.appendingPathComponent("llhls.jsonl").path
        let result = try BufprobeProcess.run(["check", "--json", "--replay-events", events] + fixture.options + [fixture.header.source], timeout: 30)
        #expect(result.stdout == fixture.recorded, "\(result.stderr)")
        let other = try BufprobeProcess.run(["check", "--json", "--replay-events", events, "http://127.0.0.1:9/other.m3u8"], timeout: 30)
        #expect(other.status == 64, "\(other.stderr)")
        #expect(other.stderr.contains("recorded a check of \(fixture.header.source)"), "\(other.stderr)")
    }

    @Test("fixtures exist for each live origin the suites use")
    func fixturesExist() {
        #expect(Set(EventFixture.all).isSuperset(of: ["hls-live", "llhls"]), "\(EventFixture.all)")
    }

    @Test("HLS live: the latency is on the program date-times and the system clock; players' hold-back, 3 target durations, is the start; no real-time factor")
    func hlsLiveLatency() throws {
        let document = try EventFixture("hls-live").document()
        let latency = try #require(document["live_latency"] as? [String: Any])
        #expect(latency["basis"] as? String == "program_date_time")
        #expect(latency["clock"] as? String == "system")
        let holdBack = try #require(latency["hold_back"] as? [String: Any])
        #expect(holdBack["rule"] as? String == "3 x EXT-X-TARGETDURATION")
        #expect(holdBack["target"] as? Double == 6)
        let applied = try #require(holdBack["applied"] as? Double)
        #expect(abs(applied - 6) < 0.01, "started \(applied) s behind the edge")
        let atStart = try #require(latency["at_start"] as? Double)
        #expect(atStart >= 6, "never closer than the hold-back: \(atStart)")
        #expect(document["realtime_factor"] as? Double == nil)
    }

    @Test("HLS live: --live-start edge starts one 2 s segment behind the edge, two segments closer than the hold-back")
    func hlsLiveEdge() throws {
        try #require(EventFixture.all.contains("hls-live-edge"))
        let edge = try #require(try EventFixture("hls-live-edge").document()["live_latency"] as? [String: Any])
        let holdBack = try #require(try EventFixture("hls-live").document()["live_latency"] as? [String: Any])
        let start = try #require(edge["hold_back"] as? [String: Any])
        let applied = try #require(start["applied"] as? Double)
        #expect(abs(applied - 2) < 0.01, "the newest segment starts one 2 s segment behind the edge: \(applied)")
        #expect(start["rule"] as? String == "--live-start edge")
        // Two segments (4 s) closer to the edge, less what the player then waits for its start threshold.
        let edgeStart = try #require(edge["at_start"] as? Double)
        let holdBackStart = try #require(holdBack["at_start"] as? Double)
        #expect(edgeStart < holdBackStart - 2, "edge \(edgeStart), hold-back \(holdBackStart)")
    }

    @Test("LL-HLS: the good origin passes with every blocking reload held, parts played, the start about PART-HOLD-BACK from the edge")
    func lowLatencyGoodOrigin() throws {
        let document = try EventFixture("llhls").document()
        #expect(document["verdict"] as? String == "pass", "\(document["reason"] ?? "")")
        let section = try #require(document["low_latency"] as? [String: Any])
        let counts = section["counts"] as? [String: Int] ?? [:]
        #expect(counts.values.allSatisfy { $0 == 0 }, "\(counts)")
        try LowLatencyExpectations.healthy(section)
    }

    @Test(
        "LL-HLS: each faulty twin gives its own warning, and ignoring blocking reloads is degraded",
        arguments: [
            ("ignore-blocking", "blocking_reload_ignored"), ("long-part", "part_over_target"),
            ("missing-hint", "preload_hint_unfulfilled"), ("false-independent", "independent_without_keyframe"),
            ("wrong-skip", "delta_update_mismatch"),
        ])
    func lowLatencyTwin(fault: String, kind: String) throws {
        let name = "llhls-\(fault)"
        try #require(EventFixture.all.contains(name), "no fixture \(name)")
        let document = try EventFixture(name).document()
        let section = try #require(document["low_latency"] as? [String: Any])
        let counts = section["counts"] as? [String: Int] ?? [:]
        #expect(counts[kind, default: 0] > 0, "\(counts)")
        #expect(counts.filter { $0.key != kind && $0.value > 0 }.isEmpty, "\(counts)")
        let warnings = document["warnings"] as? [String] ?? []
        let events = section["events"] as? [[String: Any]] ?? []
        let messages = events.filter { $0["kind"] as? String == kind }.compactMap { $0["message"] as? String }
        #expect(!messages.isEmpty && messages.allSatisfy { warnings.contains($0) })
        let reason = document["reason"] as? String ?? ""
        if fault == "ignore-blocking" {
            #expect(document["verdict"] as? String == "degraded", "\(reason)")
            #expect(reason.contains("ignores blocking playlist reloads"), "\(reason)")
        } else {
            #expect(document["verdict"] as? String == "pass", "\(reason)")
        }
    }

    @Test("playlist health: an advancing, then frozen, then regressing playlist gives over-target, stale and regression in order; stale makes it degraded")
    func playlistHealth() throws {
        try #require(EventFixture.all.contains("playlist-health"))
        let fixture = try EventFixture("playlist-health")
        let document = try fixture.document()
        #expect(document["verdict"] as? String == "degraded")
        let health = try #require(document["playlist_health"] as? [String: Any])
        #expect(health["url"] as? String == fixture.header.source)
        let url = fixture.header.source
        let reason = document["reason"] as? String ?? ""
        #expect(reason.contains("stopped updating for more than 1.5x its target duration (\(url), found at"), "\(reason)")
        #expect(health["playlists"] as? [String] == [url])
        #expect((health["reloads"] as? Int ?? 0) >= 6, "\(health)")
        let events = health["events"] as? [[String: Any]] ?? []
        #expect(events.compactMap { $0["kind"] as? String } == ["segment_over_target_duration", "stale", "media_sequence_regression"])
        guard events.count == 3 else { return }
        // The server's phases: advancing until 4 s, frozen until 9 s, regressed after.
        let at = events.map { $0["at"] as? Double ?? -1 }
        #expect(at[0] < 4 && at[1] > 5 && at[1] < 9 && at[2] > 9 && at[2] < 12.5, "\(at)")
        #expect(events.map { $0["media_sequence"] as? Int } == [3, 4, 1])
        #expect((events[2]["message"] as? String ?? "").contains("went back from media sequence 4 to 1"))
    }

    @Test("LL-DASH with @duration addressing: the UTCTiming clock, FFmpeg's hold-back and latency, early requests, no reloads")
    func dashTemplate() throws {
        let fixture = try EventFixture("dash-live-template")
        let document = try LiveDocument.decode(fixture.replayedJSON())
        let segment = CheckDASHLiveTests.segment
        #expect(document.verdict != "fail" && document.stallCount <= 1, "\(document.reason)")
        let dash = try #require(document.dashLive)
        let latency = try #require(document.liveLatency)
        // The clock is the origin's /time (this machine's clock: the offset is the reading error, ms).
        let time = fixture.header.source.replacingOccurrences(of: "live.mpd", with: "time")
        #expect(dash.clock == "utc_timing urn:mpeg:dash:utc:http-xsdate:2014 \(time)")
        #expect(latency.clock == dash.clock)
        #expect(abs(dash.clockOffset) < 0.1)
        #expect(dash.minimumUpdatePeriod == 2 && dash.timeShiftBufferDepth == 4 && dash.targetLatency == 3)
        #expect(latency.holdBack.target == 3)
        // FFmpeg 5.1 starts @duration addressing at the segment being made (or the next): within one segment.
        let holdBack = try #require(latency.holdBack.applied)
        #expect(holdBack > -segment && holdBack < segment, "hold-back \(holdBack)")
        #expect(dash.startHoldBack == holdBack)
        let atStart = try #require(latency.atStart)
        #expect(atStart >= segment - 0.25 && atStart <= 2 * segment + 0.5, "latency at start \(atStart)")
        // Latency grows only by the time stalled (the playhead follows the clock otherwise).
        #expect(abs((latency.drift ?? 99) - document.stallTime) < 0.25, "drift \(latency.drift ?? 99), stalled \(document.stallTime)")
        // FFmpeg asks for the segment being made at once, before availabilityTimeOffset allows, and never
        // reloads a manifest with @duration addressing (minimumUpdatePeriod 2 s).
        #expect(dash.segmentsRequested >= 8)
        #expect(dash.counts.earlyRequest > 0)
        #expect(dash.mpdReloads == 0 && dash.counts.reloadLate >= 1)
        #expect(dash.counts.missingSegment == 0 && dash.counts.clockUnavailable == 0)
    }

    @Test("LL-DASH with a SegmentTimeline: MPD reloads counted (early, never late), the start at the window's oldest segment")
    func dashTimeline() throws {
        let document = try LiveDocument.decode(EventFixture("dash-live-timeline").replayedJSON())
        let dash = try #require(document.dashLive)
        let latency = try #require(document.liveLatency)
        #expect(dash.mpdReloads >= 4)
        #expect(dash.counts.reloadEarly > 0 && dash.counts.reloadLate == 0)
        #expect(dash.listedWindow == 4 && dash.counts.windowMismatch == 0)
        let holdBack = try #require(latency.holdBack.applied)
        #expect(abs(holdBack - 4) <= CheckDASHLiveTests.segment, "hold-back \(holdBack)")
        #expect(dash.counts.missingSegment == 0)
    }
}
