@testable import CheckEngine
import PlaybackModel
import MediaIO
import Testing

/// The LL-HLS rules as a pure machine: made-up playlists, virtual check times.
@Suite("LowLatencyMonitor applies the LL-HLS rules")
struct LowLatencyMonitorTests {
    /// A live LL playlist whose segment `sequence` is in progress with `parts` parts of `duration`,
    /// hinting `hint` (default: the next part).
    static func playlist(
        sequence: Int, parts: Int, duration: Double = 0.4, holdBack: Double = 1.0, hint: String? = nil,
        independent: (Int) -> Bool = { $0 % 2 == 0 }
    ) throws -> HLSPlaylist {
        var text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:3
            #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=\(holdBack)
            #EXT-X-PART-INF:PART-TARGET=0.4
            #EXT-X-MEDIA-SEQUENCE:\(sequence - 1)
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z
            #EXTINF:2.4,
            seg\(sequence - 1).m4s

            """
        for index in 0..<parts {
            text += "#EXT-X-PART:DURATION=\(duration),URI=\"part\(sequence).\(index).m4s\"\(independent(index) ? ",INDEPENDENT=YES" : "")\n"
        }
        text += "#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"\(hint ?? "part\(sequence).\(parts).m4s")\"\n"
        return try HLSPlaylist.parse(text)
    }

    @Test("a good stream: held reloads, fulfilled hints, parts within the target give no event")
    func goodStreamIsQuiet() throws {
        var monitor = LowLatencyMonitor(playlist: "live.m3u8")
        monitor.loaded(try Self.playlist(sequence: 5, parts: 1), url: "live.m3u8", at: 0, seconds: 0, asked: nil)
        for parts in 2...5 {
            let asked = LowLatencyHLSClient.Request(sequence: 5, part: parts - 1, skip: false)
            monitor.loaded(try Self.playlist(sequence: 5, parts: parts), url: "live.m3u8", at: Double(parts) * 0.4, seconds: 0.38, asked: asked)
        }
        let report = monitor.finalReport
        #expect(report.events.isEmpty, "\(report.events)")
        #expect(report.blockingReloads == 4)
        #expect(report.blockingReloadsHeld == 4)
        #expect(report.holdMean == 0.38)
    }

    @Test("each fault is its kind: short hold-back, long part, ignored reload, wrong hint, late hint")
    func faultsAreNamed() throws {
        var monitor = LowLatencyMonitor(playlist: "live.m3u8")
        monitor.loaded(try Self.playlist(sequence: 5, parts: 1, holdBack: 0.6), url: "live.m3u8", at: 0, seconds: 0, asked: nil)
        // Asked for part 1, answered at once without it.
        monitor.loaded(
            try Self.playlist(sequence: 5, parts: 1), url: "live.m3u8", at: 0.01, seconds: 0.01,
            asked: .init(sequence: 5, part: 1, skip: false))
        // Part 1 is 0.8 s; the first hint said part5.1.m4s and it is listed as such; the next hints nowhere.
        monitor.loaded(try Self.playlist(sequence: 5, parts: 2, duration: 0.8, hint: "nowhere.m4s"), url: "live.m3u8", at: 0.8, seconds: 0.7, asked: nil)
        // The hint "nowhere.m4s" is followed by part5.2.m4s.
        monitor.loaded(try Self.playlist(sequence: 5, parts: 3), url: "live.m3u8", at: 1.2, seconds: 0.3, asked: nil)
        let counts = monitor.finalReport.counts
        #expect(counts[.partHoldBackTooShort] == 1)
        #expect(counts[.blockingReloadIgnored] == 1)
        // Part 0 was checked (0.4 s) when first listed; part 1 is new and 0.8 s.
        #expect(counts[.partOverTarget] == 1)
        #expect(counts[.preloadHintUnfulfilled] == 1)
        #expect(monitor.finalReport.events.allSatisfy { $0.message.contains("live.m3u8") })
    }

    @Test("a hint never listed is reported after 3 part targets, not before")
    func lateHint() throws {
        var monitor = LowLatencyMonitor(playlist: "live.m3u8")
        monitor.loaded(try Self.playlist(sequence: 5, parts: 1), url: "live.m3u8", at: 0, seconds: 0, asked: nil)
        monitor.loaded(try Self.playlist(sequence: 5, parts: 1), url: "live.m3u8", at: 1.1, seconds: 0, asked: nil)
        #expect(monitor.finalReport.counts[.preloadHintUnfulfilled] == 0)
        monitor.loaded(try Self.playlist(sequence: 5, parts: 1), url: "live.m3u8", at: 1.3, seconds: 0, asked: nil)
        #expect(monitor.finalReport.counts[.preloadHintUnfulfilled] == 1)
    }

    @Test("an INDEPENDENT part whose first video packet is no keyframe is reported once; packets anchor parts to their date")
    func independentNeedsKeyframe() throws {
        var monitor = LowLatencyMonitor(playlist: "live.m3u8")
        let playlist = try Self.playlist(sequence: 5, parts: 2, independent: { _ in true })
        let parts = playlist.trailingParts
        monitor.appended(parts[0], range: 0..<100, wholeSegment: false)
        monitor.appended(parts[1], range: 100..<200, wholeSegment: false)
        let first = monitor.packet(position: 10, isVideo: true, keyframe: true, mediaTime: 7, anchorsOnVideo: true, at: 1)
        #expect(first?.mediaTime == 7)
        #expect(first?.unixTime == parts[0].programDateTime)
        _ = monitor.packet(position: 50, isVideo: true, keyframe: false, mediaTime: 7.04, anchorsOnVideo: true, at: 1)
        #expect(monitor.finalReport.counts[.independentWithoutKeyframe] == 0)
        _ = monitor.packet(position: 120, isVideo: false, keyframe: true, mediaTime: 7.4, anchorsOnVideo: true, at: 1)
        _ = monitor.packet(position: 130, isVideo: true, keyframe: false, mediaTime: 7.4, anchorsOnVideo: true, at: 1)
        _ = monitor.packet(position: 150, isVideo: true, keyframe: false, mediaTime: 7.44, anchorsOnVideo: true, at: 1)
        #expect(monitor.finalReport.counts[.independentWithoutKeyframe] == 1)
        #expect(monitor.finalReport.partsPlayed == 2)
    }

    @Test("a delta update whose SKIPPED-SEGMENTS is off by one is a mismatch; a right one is not")
    func deltaUpdates() throws {
        let full = try HLSPlaylist.parse("""
            #EXTM3U
            #EXT-X-TARGETDURATION:3
            #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.0,CAN-SKIP-UNTIL=6
            #EXT-X-PART-INF:PART-TARGET=0.4
            #EXT-X-MEDIA-SEQUENCE:1
            #EXTINF:2.4,
            seg1.m4s
            #EXTINF:2.4,
            seg2.m4s
            #EXTINF:2.4,
            seg3.m4s
            #EXTINF:2.4,
            seg4.m4s
            """)
        func delta(_ skipped: Int) throws -> HLSPlaylist {
            try HLSPlaylist.parse("#EXTM3U\n#EXT-X-TARGETDURATION:3\n#EXT-X-MEDIA-SEQUENCE:1\n#EXT-X-SKIP:SKIPPED-SEGMENTS=\(skipped)\n#EXTINF:2.4,\nseg3.m4s\n#EXTINF:2.4,\nseg4.m4s\n")
        }
        var monitor = LowLatencyMonitor(playlist: "live.m3u8")
        monitor.loaded(full, url: "live.m3u8", at: 0, seconds: 0, asked: nil)
        monitor.loaded(try delta(2), url: "live.m3u8?skip", at: 1, seconds: 0.1, asked: .init(sequence: 4, part: 0, skip: true))
        #expect(monitor.finalReport.counts[.deltaUpdateMismatch] == 0)
        monitor.loaded(try delta(3), url: "live.m3u8?skip", at: 2, seconds: 0.1, asked: .init(sequence: 4, part: 0, skip: true))
        #expect(monitor.finalReport.counts[.deltaUpdateMismatch] == 1)
        #expect(monitor.finalReport.deltaUpdates == 2)
    }

    @Test("ignored blocking reloads make the verdict degraded, naming the playlist")
    func ignoredIsDegraded() {
        var measured = Verdict.Measurements(source: "http://o/live.m3u8", qoe: .init())
        measured.qoe.started = true
        measured.ignoredBlockingReloads = ("http://o/live.m3u8", 9, 10)
        let (verdict, reason) = Verdict.decide(measured)
        #expect(verdict == .degraded)
        #expect(reason.contains("ignores blocking playlist reloads (9 of 10"), "\(reason)")
        measured.ignoredBlockingReloads = nil
        #expect(Verdict.decide(measured).verdict == .pass)
    }

    @Test("the text summary's low latency line gives target, hold-back, reloads held and ignored with times, parts and problems by kind")
    func textLine() throws {
        var monitor = LowLatencyMonitor(playlist: "live.m3u8")
        monitor.loaded(try Self.playlist(sequence: 5, parts: 1), url: "live.m3u8", at: 0, seconds: 0, asked: nil)
        monitor.loaded(
            try Self.playlist(sequence: 5, parts: 1), url: "live.m3u8", at: 0.01, seconds: 0.01,
            asked: .init(sequence: 5, part: 1, skip: false))
        monitor.loaded(
            try Self.playlist(sequence: 5, parts: 2), url: "live.m3u8", at: 0.4, seconds: 0.39,
            asked: .init(sequence: 5, part: 1, skip: false))
        var report = CheckReport(
            source: "live.m3u8", verdict: .pass, reason: "", stallCount: 0, stallTime: 0, stalls: [], rebufferRatio: 0,
            loadedRanges: [], sampledDuration: 1, live: true, complete: false, played: 0, bufferedAhead: 0,
            playableStreams: [], variants: [],
            settings: .init(
                startThreshold: 1, resumeThreshold: 2, maxBuffer: 50, player: nil, resumeCap: nil, maxStartup: 3,
                timeout: 10, sampleLimit: nil, rate: nil, variant: "best", allVariantsSegments: nil),
            warnings: [])
        report.lowLatency = monitor.finalReport
        let text = CheckText.render(report)
        #expect(text.contains(
            "  low latency: PART-TARGET 0.400 s, PART-HOLD-BACK 1.000 s; 2 blocking reloads, 1 held, 1 ignored (held 0.010 s/0.200 s/0.390 s min/mean/max); 0 parts played; 1 blocking_reload_ignored\n"),
            "\(text)")
    }
}
