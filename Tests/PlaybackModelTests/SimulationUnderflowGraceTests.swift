import PlaybackModel
import Testing

/// `count` segments of 2 s and `bytes` each.
private func segments(_ count: Int, bytes: Int64) -> SimulationMedia {
    .segmented(Array(repeating: (duration: 2, bytes: bytes), count: count))
}

/// Starts and resumes on any data, as dash.js on Chromium does; a large forward target.
private let onData = BufferPolicy(startThreshold: 0.1, resumeThreshold: 0.1, forwardTarget: 30, backBuffer: 30)

@Suite("Chromium's video-underflow grace and dash.js's audio schedule, with a separate audio track")
struct SimulationUnderflowGraceTests {
    /// Video 300,000 bytes per 2 s segment over 500 kbit/s (4.8 s each), audio tiny: the video runs out at
    /// media time 2 while the audio runs on. Segment 1 ([2, 4)) arrives when the playhead is already past 4
    /// with the grace, so it does not help; segment 2 ([4, 6)) holds the playhead and ends the stall.
    @Test("with a grace of 3 s the first stall starts 3 s of media after the video's end, and without one at it")
    func stallAfterGrace() throws {
        let network = NetworkModel(bitsPerSecond: 500_000)
        var positions: [Double] = []
        for grace in [0.0, 3.0] {
            var engine = SimulationEngine(
                media: segments(5, bytes: 300_000), network: network, policy: onData, audio: segments(5, bytes: 2_000))
            engine.videoUnderflowGrace = grace
            #expect(engine.videoUnderflowGrace == grace)
            engine.run()
            let first = try #require(engine.result.report.stalls.first)
            positions.append(first.position)
        }
        #expect(abs(positions[0] - 2) < 1e-6, "\(positions)")
        #expect(abs(positions[1] - 5) < 1e-6, "\(positions)")
    }

    @Test("the grace needs a separate audio track: without one it reads 0 and changes nothing")
    func noAudioNoGrace() throws {
        var engine = SimulationEngine(
            media: segments(5, bytes: 300_000), network: NetworkModel(bitsPerSecond: 500_000), policy: onData)
        engine.videoUnderflowGrace = 3
        #expect(engine.videoUnderflowGrace == 0)
        engine.run()
        #expect(abs((engine.result.report.stalls.first?.position ?? 0) - 2) < 1e-6)
    }

    /// Audio segment 2 ([4, 6)) is 1,000,000 bytes: it shares the link with the video and is still far
    /// from done when the playhead, past the video's end at 2, reaches the audio's end at 4, 1 s before
    /// the grace would end.
    @Test("the audio running out during the grace stalls at once: min(video end + grace, audio end)")
    func audioEndsFirst() throws {
        let audio = SimulationMedia.segmented([2_000, 2_000, 1_000_000, 2_000, 2_000].map { (duration: 2.0, bytes: Int64($0)) })
        var engine = SimulationEngine(
            media: segments(5, bytes: 300_000), network: NetworkModel(bitsPerSecond: 500_000), policy: onData,
            audio: audio)
        engine.videoUnderflowGrace = 3
        engine.run()
        let first = try #require(engine.result.report.stalls.first)
        #expect(abs(first.position - 4) < 1e-6, "\(first)")
    }

    /// dash.js's schedule holds the audio at the video's level + 1 s plus a segment: when the video ends at
    /// 2 the audio ends at 4. Past 2 the video's level stays 0 while the audio's falls, so a recheck (every
    /// 0.5 s) fetches audio segment 2 during the grace; the grace then runs its full 3 s.
    @Test("audio arriving during the grace extends what is lent, up to 3 s past the video's end")
    func audioArrivesDuringGrace() throws {
        var engine = SimulationEngine(
            media: segments(5, bytes: 300_000), network: NetworkModel(bitsPerSecond: 500_000), policy: onData,
            audio: segments(5, bytes: 2_000))
        engine.videoUnderflowGrace = 3
        engine.scheduleAudio(leadOverVideo: 1, shortfall: 0)
        engine.run()
        let first = try #require(engine.result.report.stalls.first)
        #expect(abs(first.position - 5) < 1e-6, "\(first)")
        let audio2 = try #require(engine.requestLog.first { $0.track == .audio && $0.segment == 2 })
        #expect(audio2.start < first.start, "\(audio2)")
    }

    /// dash.js's audio buffer target with a video track: max(video level + 1 s, the segment's 2 s). Before
    /// the first video segment arrives the video level is 0: the audio fetches segment 0 only (2 s is not
    /// below 2 s); with an AAC frame of shortfall its level is 1.98 s, below 2 s: segment 1 too.
    @Test("dash.js's audio schedule: the audio waits for the video's level, one frame of shortfall fetches one more")
    func audioLead() throws {
        for (shortfall, expected) in [(0.0, 1), (0.021, 2)] {
            var engine = SimulationEngine(
                media: segments(5, bytes: 300_000), network: NetworkModel(bitsPerSecond: 500_000), policy: onData,
                audio: segments(5, bytes: 2_000))
            engine.scheduleAudio(leadOverVideo: 1, shortfall: shortfall)
            engine.run()
            let log = engine.requestLog
            let firstVideo = try #require(log.first { $0.track == .video && $0.segment == 0 }?.end)
            let early = log.filter { $0.track == .audio && $0.segment != nil && $0.start < firstVideo }
            #expect(early.count == expected, "\(early)")
        }
    }
}
