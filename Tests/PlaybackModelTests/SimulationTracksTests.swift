import PlaybackModel
import Testing

/// `count` segments of `duration` seconds and `bytes` each.
private func segments(_ count: Int, bytes: Int64, duration: Double = 2) -> SimulationMedia {
    .segmented(Array(repeating: (duration: duration, bytes: bytes), count: count))
}

/// The seconds during which at least one request of `log` was in flight (the union of their spans).
private func busyTime(_ log: [SimulationRequest]) -> Double {
    var spans = log.compactMap { request in request.end.map { (request.start, $0) } }.sorted { $0.0 < $1.0 }
    var total = 0.0
    var current: (Double, Double)?
    for span in spans {
        if let open = current, span.0 <= open.1 {
            current = (open.0, max(open.1, span.1))
        } else {
            if let open = current { total += open.1 - open.0 }
            current = span
        }
    }
    if let open = current { total += open.1 - open.0 }
    spans.removeAll()
    return total
}

@Suite("A separate audio track beside the video: its own requests on the shared link, playable = both buffered")
struct SimulationTracksTests {
    @Test("the tracks split a constant link equally while both transfer: all bytes over the busy time = the link rate")
    func sharedLink() throws {
        // Video 1 Mbit/s, audio 200 kbit/s, 2 s segments, 4 Mbit/s: while both flow each has 2 Mbit/s.
        let network = NetworkModel(bitsPerSecond: 4_000_000)
        var engine = SimulationEngine(
            media: segments(5, bytes: 250_000), network: network, policy: .default, audio: segments(5, bytes: 50_000))
        engine.run()
        #expect(engine.fetchesAudioTrack)
        let log = engine.requestLog
        let audio = log.filter { $0.track == .audio }
        let video = log.filter { $0.track == .video }
        #expect(audio.count == 5 && video.count == 5)
        #expect(audio.map(\.segment) == [0, 1, 2, 3, 4] && video.map(\.segment) == [0, 1, 2, 3, 4])
        // Audio: 400 kbit per segment at 2 Mbit/s, one after another: 0.2 s each.
        for (index, request) in audio.enumerated() {
            #expect(abs((request.end ?? 0) - 0.2 * Double(index + 1)) < 1e-9, "\(request)")
        }
        // Video: the first 2 Mbit at half the link (1 s); the rest at the whole link (0.5 s each).
        let ends = video.map { $0.end ?? 0 }
        for (index, expected) in [1.0, 1.5, 2.0, 2.5, 3.0].enumerated() {
            #expect(abs(ends[index] - expected) < 1e-9, "\(ends)")
        }
        let bits = Double(engine.bytesReceived) * 8
        #expect(engine.bytesReceived == 5 * 250_000 + 5 * 50_000)
        #expect(abs(bits / busyTime(log) - 4_000_000) < 1e-3)
        #expect(engine.requests == 10)
    }

    @Test("a request in its latency takes no share of the link")
    func latencyTakesNoShare() throws {
        // One segment each, the same size: with 0.5 s latency both send at 0, flow from 0.5, share it all.
        let network = NetworkModel(bitsPerSecond: 1_000_000, latency: 0.5)
        var engine = SimulationEngine(
            media: segments(1, bytes: 125_000), network: network, policy: .default, audio: segments(1, bytes: 125_000))
        engine.run()
        let ends = engine.requestLog.map { $0.end ?? 0 }
        #expect(ends.count == 2 && ends.allSatisfy { abs($0 - 2.5) < 1e-9 }, "\(ends)")
    }

    @Test("startup waits for both tracks: the first frame needs video and audio")
    func startupWaitsForBoth() throws {
        let network = NetworkModel(bitsPerSecond: 2_000_000)
        for (video, audio) in [(Int64(250_000), Int64(50_000)), (Int64(50_000), Int64(250_000))] {
            var engine = SimulationEngine(
                media: segments(5, bytes: video), network: network, policy: .default, audio: segments(5, bytes: audio))
            engine.run()
            let log = engine.requestLog
            let first = [SimulationRequest.Track.video, .audio].map { track in
                log.first { $0.track == track && $0.segment == 0 }?.end ?? .infinity
            }
            #expect(abs(engine.result.report.startupDelay - first.max()!) < 1e-9, "\(first)")
            #expect(engine.result.report.startupDelay > first.min()! + 0.1)
        }
    }

    @Test("the player stalls when the audio buffer runs dry though the video is far ahead")
    func audioRunsDry() throws {
        // Video 100 kbit/s, audio 1 Mbit/s, over 800 kbit/s: the audio alone cannot keep up.
        let network = NetworkModel(bitsPerSecond: 800_000)
        let video = segments(20, bytes: 25_000)
        var engine = SimulationEngine(
            media: video, network: network, policy: .default, audio: segments(20, bytes: 250_000))
        engine.run()
        let report = engine.result.report
        #expect(report.stallCount > 0)
        let alone = SimulationEngine.run(media: video, network: network, policy: .default)
        #expect(alone.report.stallCount == 0)
        let log = engine.requestLog
        for stall in report.stalls {
            // Video arrived by the stall reaches well past its position; the audio stops at it.
            let videoEnd = log.filter { $0.track == .video && ($0.end ?? .infinity) <= stall.start }
                .compactMap(\.segment).max().map { Double($0 + 1) * 2 } ?? 0
            let audioEnd = log.filter { $0.track == .audio && ($0.end ?? .infinity) <= stall.start }
                .compactMap(\.segment).max().map { Double($0 + 1) * 2 } ?? 0
            #expect(videoEnd >= min(stall.position + 4, 40) && videoEnd > stall.position, "video to \(videoEnd) at stall \(stall)")
            #expect(abs(audioEnd - stall.position) < 1e-6, "audio to \(audioEnd) at stall \(stall)")
        }
    }

    @Test("without an audio track the request log holds one entry per request, in order")
    func oneTrackLog() throws {
        let network = NetworkModel(bitsPerSecond: 1_000_000, latency: 0.1)
        var engine = SimulationEngine(
            media: .segmented(Array(repeating: (duration: 2.0, bytes: Int64(100_000)), count: 4), initializationBytes: 900),
            network: network, policy: .default)
        engine.run()
        let log = engine.requestLog
        #expect(!engine.fetchesAudioTrack)
        #expect(log.count == engine.requests)
        #expect(log.map(\.kind) == [.initialization, .segment, .segment, .segment, .segment])
        #expect(log.map(\.bytes) == [900, 100_000, 100_000, 100_000, 100_000])
        #expect(log.allSatisfy { $0.track == .video && $0.variant == nil && !$0.abandoned })
        #expect(log.map(\.bytes).reduce(0, +) == engine.bytesReceived)
        #expect(zip(log, log.dropFirst()).allSatisfy { $0.end! <= $1.start })
    }
}
