import Testing

@testable import PlaybackModel

/// `count` segments of 2 s and `bytes` each.
private func segments(_ count: Int, bytes: Int64) -> SimulationMedia {
    .segmented(Array(repeating: (duration: 2, bytes: bytes), count: count))
}

/// Starts and resumes on any data, as dash.js on Chromium does; a large forward target.
private let onData = BufferPolicy(startThreshold: 0.1, resumeThreshold: 0.1, forwardTarget: 30, backBuffer: 30)

/// A player model that always asks for the lowest variant.
private struct LowestModel: PlayerAbrModel {
    var name: String { "lowest" }
    var parameters: [String: Double] { [:] }
    mutating func choose(_ context: PlayerAbrContext) -> AbrDecision { AbrDecision(variant: 0, reason: "lowest") }
    mutating func recordDownload(_ download: PlayerAbrDownload) {}
    func overriding(safetyFactor: Double?) -> LowestModel { self }
}

@Suite("Separate audio and video levels: the level a player's ABR reads, and Shaka's run-ahead limit")
struct SimulationTrackLevelsTests {
    /// One variant of 5 video segments of 300,000 bytes (4.8 s each at 500 kbit/s), tiny audio segments.
    static func ladder() throws -> SimulationLadder {
        try SimulationLadder(
            variants: [.init(label: 0, bitRate: 1_200_000, segmentBytes: Array(repeating: 300_000, count: 5))],
            durations: Array(repeating: 2, count: 5))
    }

    @Test("a player model reads the video's own level: 0 while the playhead is in the audio's underflow grace")
    func playerModelReadsVideoLevel() throws {
        for isPlayer in [true, false] {
            let rule: AbrRule = isPlayer ? .player(PlayerAbr(LowestModel())) : .throughput(.default)
            var engine = SimulationEngine(
                ladder: try Self.ladder(), rule: rule, network: NetworkModel(bitsPerSecond: 500_000), policy: onData,
                audio: segments(5, bytes: 2_000))
            engine.videoUnderflowGrace = 3
            // Video segment 0 ([0, 2)) is in at about 4.8 s, segment 1 at about 9.6 s: at 8 s the playhead is
            // past 2 s, on the audio alone.
            engine.run(until: 8)
            let playhead = engine.session.player.currentTime
            try #require(playhead > 2.1 && playhead < 4.9, "playhead \(playhead)")
            let played = engine.session.player.item.bufferedAhead
            #expect(played > 0.1)
            #expect(engine.abrBufferedAhead == (isPlayer ? 0 : played))
        }
    }

    /// Video 300,000-byte segments (2.4 s each at 1 Mbit/s), tiny audio: the audio could run far ahead.
    /// The audio requests' starts and ends, and the video requests' ends.
    static func requests(runAhead: Double?) -> (audio: [(start: Double, end: Double)], videoEnds: [Double]) {
        var engine = SimulationEngine(
            media: segments(6, bytes: 300_000), network: NetworkModel(bitsPerSecond: 1_000_000), policy: onData,
            audio: segments(6, bytes: 2_000))
        if let runAhead { engine.limitAudioRunAhead(segments: runAhead) }
        engine.run()
        let log = engine.requestLog.filter { $0.kind == .segment }
        return (
            log.filter { $0.track == .audio }.map { ($0.start, $0.end ?? .nan) },
            log.filter { $0.track == .video }.compactMap(\.end)
        )
    }

    @Test("Shaka's run-ahead: audio segment k waits for video segment k - 1, looked at again every 1 s")
    func runAheadWaitsForVideo() throws {
        let limited = Self.requests(runAhead: 1)
        // Audio 0 goes at once; audio k (k >= 1) only once video k - 1 is in: the video's data then ends at
        // k x 2 s, and the audio's (k x 2 s) is less than 2 s past it.
        try #require(limited.audio.count == 6)
        for k in 1..<limited.audio.count {
            #expect(limited.audio[k].start >= limited.videoEnds[k - 1], "audio \(k) at \(limited.audio[k].start)")
        }
        // Held back when audio 0 arrived, it looks again at whole seconds after that: audio 1 goes at the
        // first look after video 0 arrived (about 2.4 s), i.e. about 3 s, not at that arrival.
        let waited = limited.audio[1].start - limited.audio[0].end
        #expect(abs(waited - waited.rounded()) < 1e-9, "waited \(waited)")
        #expect(limited.audio[1].start > limited.videoEnds[0] + 0.5)
        // Without the limit the audio runs ahead: audio 1 goes before video 0 is in.
        let free = Self.requests(runAhead: nil)
        #expect(free.audio[1].start < free.videoEnds[0])
    }
}
