@testable import CheckEngine
import MediaIO
import Testing

/// `--live-start` as one mapping for both paths: segments (FFmpeg's `live_start_index`) and LL-HLS parts.
@Suite("--live-start: where a live playlist starts")
struct LiveStartTests {
    static func playlist(holdBack: Bool, parts: Bool) throws -> HLSPlaylist {
        var text = "#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:2\n"
        if parts { text += "#EXT-X-PART-INF:PART-TARGET=0.5\n" }
        text += "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES" + (holdBack ? ",HOLD-BACK=5" : "") + (parts ? ",PART-HOLD-BACK=1.5" : "") + "\n"
        text += "#EXT-X-MEDIA-SEQUENCE:10\n"
        for index in 10..<16 { text += "#EXTINF:2,\ns\(index).ts\n" }
        return try HLSPlaylist.parse(text)
    }

    @Test("the default is the playlist's hold-back: PART-HOLD-BACK for parts, HOLD-BACK for segments, else three target durations")
    func defaultHoldBack() throws {
        let both = try Self.playlist(holdBack: true, parts: true)
        #expect(LiveStart.holdBack.target(in: both, playsParts: true)! == (1.5, "PART-HOLD-BACK"))
        #expect(LiveStart.holdBack.target(in: both, playsParts: false)! == (5, "HOLD-BACK"))
        let plain = try Self.playlist(holdBack: false, parts: false)
        #expect(LiveStart.holdBack.target(in: plain, playsParts: false)! == (6, "3 x EXT-X-TARGETDURATION"))
        // 6 s behind the edge of 2 s segments: the third from the end.
        #expect(LiveStart.holdBack.start(in: plain)! == (-3, 6, "3 x EXT-X-TARGETDURATION"))
    }

    @Test("edge, window-start and seconds map the same on both paths; only the window's start differs (all of it, or the oldest part)")
    func options() throws {
        let playlist = try Self.playlist(holdBack: true, parts: true)
        #expect(LiveStart.edge.target(in: playlist, playsParts: true)! == (0, "--live-start edge"))
        #expect(LiveStart.edge.start(in: playlist)! == (-1, 0, "--live-start edge"))
        #expect(LiveStart.windowStart.start(in: playlist)! == (0, 12, "--live-start window-start"))
        #expect(LiveStart.windowStart.target(in: playlist, playsParts: true)!.seconds == .infinity)
        #expect(LiveStart.behind(4).start(in: playlist)! == (-2, 4, "--live-start"))
        #expect(LowLatencyPlayback.start(.behind(4), in: playlist) == (4, "--live-start"))
    }
}
