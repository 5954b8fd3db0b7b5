import CheckEngine
import MediaIO
import Testing

@Suite("Latency to the live edge, as a pure rule")
struct LiveLatencyTrackerTests {
    @Test("playing holds the latency flat, a stall raises it by its length, and the mean weighs by time")
    func flatThenStall() throws {
        var tracker = LiveLatencyTracker()
        tracker.basis = "program_date_time"
        // Media time 100 s was captured at clock 1000 s; the edge (newest segment's end) is at 1012 s.
        tracker.anchor(mediaTime: 100, unixTime: 1000)
        tracker.edge(unixTime: 1012, now: 1012.5)
        tracker.firstMedia(100)
        // Playback starts at clock 1010 with the playhead at 100: 10 s behind; plays 4 s in step.
        for step in 0...4 { tracker.sample(playhead: 100 + Double(step), now: 1010 + Double(step)) }
        // Then stalls 2 s (playhead stays at 104), then plays 2 s more.
        tracker.sample(playhead: 104, now: 1016)
        tracker.sample(playhead: 105, now: 1017)
        tracker.sample(playhead: 106, now: 1018)
        let report = try #require(tracker.report())
        #expect(report.atStart == 10 && report.min == 10 && report.max == 12 && report.atEnd == 12)
        #expect(report.drift == 2)
        // 10 s for 4 s, rising from 10 to 12 over the 2 s stall (mean 11), 12 for 2 s: (40 + 22 + 24) / 8.
        #expect(report.mean == 10.75)
        #expect(report.holdBack.applied == 12)
        #expect(report.edgeDelay == 0.5 && report.edgeDelayMean == 0.5)
        #expect(report.samples == 8)
    }

    @Test("a later anchor takes over from its media time on; earlier media keeps the first mapping")
    func anchors() {
        var tracker = LiveLatencyTracker()
        tracker.anchor(mediaTime: 0, unixTime: 500)
        tracker.anchor(mediaTime: 10, unixTime: 520)
        #expect(tracker.unixTime(ofMedia: 5) == 505)
        #expect(tracker.unixTime(ofMedia: 12) == 522)
        #expect(tracker.unixTime(ofMedia: -2) == 498)
        #expect(tracker.mediaTime(ofUnix: 525) == 15)
    }

    @Test("nothing on the clock, no report; a non-finite anchor is ignored")
    func unanchored() {
        var tracker = LiveLatencyTracker()
        tracker.basis = "program_date_time"
        tracker.anchor(mediaTime: .nan, unixTime: 1)
        tracker.sample(playhead: 1, now: 2)
        #expect(tracker.report() == nil)
    }

    @Test("the watch anchors the first segment FFmpeg opened at the first packet, on any clock offset")
    func watchFromPlaylist() throws {
        var watch = LiveEdgeState(unixAtStart: 2000)
        watch.useClock("utc_timing test", offset: 0.5)
        let playlist = try HLSPlaylist.parse("""
            #EXTM3U
            #EXT-X-TARGETDURATION:2
            #EXT-X-MEDIA-SEQUENCE:7
            #EXT-X-PROGRAM-DATE-TIME:1970-01-01T00:33:10Z
            #EXTINF:2,
            s7.ts
            #EXTINF:2,
            s8.ts
            #EXTINF:2,
            s9.ts
            """)
        // 00:33:10 is 1990 s: the edge is s9's end, 1996 s; looked at on check time 0.5 (stream clock 2001).
        watch.playlistLoaded(playlist, url: "http://o/live/index.m3u8", at: 0.5)
        watch.segmentOpened(url: "http://o/live/index.m3u8")
        watch.segmentOpened(url: "http://o/live/s8.ts")
        watch.segmentOpened(url: "http://o/live/s9.ts")
        watch.packet(mediaTime: 41.4)
        watch.sample(at: 1, playhead: 41.4)
        let report = try #require(watch.report())
        // s8 began at 1992 s; the stream clock at check time 1 reads 2000 + 1 + 0.5.
        #expect(report.atStart == 9.5)
        #expect(report.holdBack.applied == 4)
        #expect(report.edgeDelay == 5)
        #expect(report.clock == "utc_timing test" && report.clockOffset == 0.5)
        let view = try #require(watch.view(at: 1, playhead: 41.4))
        #expect(view.latency == 9.5 && view.edge == 50.9 && view.windowStart == 44.9)
    }
}
