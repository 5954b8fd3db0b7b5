import Foundation
import Testing
import TestSupport

/// Records the live suites' real origins once as event fixtures (`EventFixture`): run with
/// `BUFPROBE_RECORD_EVENTS=1 swift test --skip-build --filter EventFixtureRecorder` after a change to the
/// events or the origins, and commit `Tests/Fixtures/events/`. Off otherwise: the fixtures are what the
/// replay tests read.
@Suite("event fixtures recorded from the real origins", .serialized, .enabled(if: ProcessInfo.processInfo.environment["BUFPROBE_RECORD_EVENTS"] != nil))
struct EventFixtureRecorder {
    @Test("HLS live behind nginx (ffmpeg -re, 2 s segments, program date-times)")
    func hlsLive() throws {
        let source = try LiveHLSSource()
        _ = try source.freshPlaylist(listing: 4)
        try EventFixture.record("hls-live", options: ["--duration", "5s"], url: source.url)
    }

    @Test("HLS live behind nginx started at the edge (--live-start edge)")
    func hlsLiveEdge() throws {
        let source = try LiveHLSSource()
        _ = try source.freshPlaylist(listing: 4)
        try EventFixture.record("hls-live-edge", options: ["--duration", "4s", "--live-start", "edge"], url: source.url)
    }

    @Test("the LL-HLS origin and its faulty twins", arguments: [nil, "ignore-blocking", "long-part", "missing-hint", "false-independent", "wrong-skip"])
    func lowLatency(fault: String?) throws {
        let origin = try FixtureServer(
            script: "llhls_origin.py",
            arguments: ["--sample", BufprobeProcess.sample("h264-aac.mp4"), "--seconds", "24", "--cache", CheckLowLatencyTests.cache]
                + (fault.map { ["--fault", $0] } ?? []))
        try EventFixture.record(
            "llhls" + (fault.map { "-\($0)" } ?? ""), options: ["--duration", "8"], url: "http://127.0.0.1:\(origin.port)/live.m3u8")
    }

    @Test("LL-DASH with @duration addressing and with a SegmentTimeline", arguments: [false, true])
    func dashLive(timeline: Bool) throws {
        let source = try LiveDASHSource(timeline: timeline)
        try EventFixture.record(timeline ? "dash-live-timeline" : "dash-live-template", options: ["--duration", "8s"], url: source.url)
    }

    @Test("the growing, frozen, then regressing live playlist")
    func playlistHealth() throws {
        let directory = try CheckServers.temporaryDirectory("bufprobe-live-health")
        defer { try? FileManager.default.removeItem(at: directory) }
        try CheckPlaylistHealthTests.makeSegments(in: directory, count: 9)
        let server = try FaultServer(script: "live_playlist_server.py", root: directory.path)
        try EventFixture.record("playlist-health", options: ["--duration", "12"], url: server.url("live.m3u8"))
    }
}
