import PlaybackModel
import Testing

@Suite("Simulation engine behaviour")
struct SimulationEngineBehaviourTests {
    static let synthetic = SimulationMedia.progressive(
        packets: SyntheticMedia(bitsPerSecond: 1_000_000, duration: 120).packets(), playableStreams: [0, 1])

    @Test("a segmented stream sends one request per segment and pays the latency each time")
    func segmented() {
        // Five 2 s segments of 50,000 bytes at 800 kbit/s: 0.5 s each plus 0.1 s latency.
        let media = SimulationMedia.segmented(Array(repeating: (duration: 2.0, bytes: Int64(50_000)), count: 5))
        let result = SimulationEngine.run(
            media: media, network: NetworkModel(bitsPerSecond: 800_000, latency: 0.1), policy: .default)
        #expect(result.requests == 5)
        #expect(abs(result.report.startupDelay - 0.6) < 1e-9)
        #expect(result.report.stallCount == 0)
        #expect(result.bytesReceived == 250_000)
        let complete = result.events.first { $0.kind == .downloadComplete }
        #expect(abs((complete?.time ?? 0) - 3.0) < 1e-9)
    }

    @Test("a seek inside the loaded data keeps the request; a seek past it sends a new one from the seek point")
    func seeks() {
        let inside = SimulationEngine.run(
            media: Self.synthetic, network: NetworkModel(bitsPerSecond: 4_000_000, latency: 0.05), policy: .default,
            steps: [SimulationStep(time: 5, action: .seek(12))])
        #expect(inside.requests == 1)
        #expect(inside.report.seeks.first?.latency == 0)
        let outside = SimulationEngine.run(
            media: Self.synthetic, network: NetworkModel(bitsPerSecond: 4_000_000, latency: 0.05), policy: .default,
            steps: [SimulationStep(time: 5, action: .seek(100))])
        #expect(outside.requests == 2)
        let request = outside.events.first { $0.kind == .request }
        #expect(request?.time == 5)
        // The seek points are the video keyframe at 100 s (every 2 s) and the audio packet holding 100 s;
        // the new request starts at whichever comes first in the file.
        let keyframe = Self.synthetic.units.first { $0.stream == 0 && $0.start >= 100 - 1e-9 && $0.isKeyframe }
        let audio = Self.synthetic.units.last { $0.stream == 1 && $0.start <= 100 }
        let first = min(keyframe?.byteStart ?? .max, audio?.byteStart ?? .max)
        #expect(request?.value == Double(first))
        #expect(first > 12_000_000 && first <= 12_500_167)
        // It waits for the latency plus one start threshold of media from the keyframe.
        let latency = outside.report.seeks.first?.latency ?? 0
        #expect(latency > 0.05 && latency < 0.05 + 1.1 * 1_000_000 / 4_000_000 + 0.01)
        #expect(outside.report.stallCount == 0)
    }

    @Test("loading stops at the forward target and the buffer never holds much more")
    func forwardTarget() {
        var engine = SimulationEngine(
            media: Self.synthetic, network: NetworkModel(bitsPerSecond: 20_000_000), policy: BufferPolicy(forwardTarget: 20))
        for time in stride(from: 5.0, through: 60, by: 5) {
            engine.run(until: time)
            #expect(engine.player.item.bufferedAhead <= 20 + 0.05)
            #expect(engine.player.item.bufferedAhead >= 19.9)
        }
        // At 20 Mbit/s the whole 120 s would be in after 6 s without the target.
        #expect(engine.bytesReceived < Int64(Double(15_000_000) * 85 / 120))
        engine.run()
        #expect(engine.result.report.ended)
        #expect(engine.requests == 1)
    }

    @Test("a pause holds the playhead for its length while loading goes on")
    func pause() {
        let result = SimulationEngine.run(
            media: Self.synthetic, network: NetworkModel(bitsPerSecond: 2_000_000), policy: .default,
            steps: [SimulationStep(time: 10, action: .pause(7))])
        #expect(abs(result.report.pausedTime - 7) < 1e-9)
        let pause = result.events.first { $0.kind == .pause }
        let resume = result.events.first { $0.kind == .resume }
        #expect(pause?.position == resume?.position)
        #expect(abs((resume?.time ?? 0) - 17) < 1e-9)
        #expect(abs(result.duration - (result.report.startupDelay + 120 + 7)) < 1e-6)
    }

    @Test("at rate 2 the rest of the media plays in half the wall time")
    func rate() {
        let result = SimulationEngine.run(
            media: Self.synthetic, network: NetworkModel(bitsPerSecond: 10_000_000), policy: .default,
            steps: [SimulationStep(time: 20, action: .rate(2))])
        #expect(result.report.stallCount == 0)
        let startup = result.report.startupDelay
        // 20 - startup seconds at 1x, then the remaining 120 - (20 - startup) at 2x.
        #expect(abs(result.duration - (20 + (120 - (20 - startup)) / 2)) < 1e-6)
    }

    @Test("data behind the playhead beyond the back buffer is gone: seeking back to it takes a new request")
    func backBuffer() {
        let steps = [SimulationStep(time: 60, action: .seek(10))]
        let evicting = SimulationEngine.run(
            media: Self.synthetic, network: NetworkModel(bitsPerSecond: 10_000_000), policy: .default, steps: steps)
        // A request from 10 s; once its data joins the data still held from 60 s on, loading skips to
        // the end of that (a third request) instead of fetching it twice.
        let requests = evicting.events.filter { $0.kind == .request }
        #expect(requests.first?.time == 60 && requests.first?.position == 10)
        #expect(evicting.requests == 1 + requests.count)
        #expect(requests.count == 2)
        #expect((requests.last?.value ?? 0) > 100 * 125_000)
        #expect((evicting.report.seeks.first?.latency ?? 0) > 0)
        #expect(evicting.bytesReceived < 15_000_000 + 60 * 125_000)
        let keeping = SimulationEngine.run(
            media: Self.synthetic, network: NetworkModel(bitsPerSecond: 10_000_000),
            policy: BufferPolicy(backBuffer: .infinity), steps: steps)
        #expect(keeping.requests == 1)
        #expect(keeping.report.seeks.first?.latency == 0)
    }

    @Test("a network that never delivers again stops the simulation with 'stuck' instead of running forever")
    func stuck() {
        var network = NetworkModel(bitsPerSecond: 1_000_000)
        network.setBandwidth(0, at: 10)
        let result = SimulationEngine.run(media: Self.synthetic, network: network, policy: .default)
        #expect(result.events.last?.kind == .stuck)
        #expect(!result.report.ended)
        #expect(result.report.stallCount == 1)
        #expect(result.finished)
    }

    @Test("a hole in the media is skipped once the download has ended, without counting a stall")
    func hole() {
        // Audio-only packets covering 0-4 s and 7-10 s.
        var packets: [MediaPacket] = []
        var position: Int64 = 0
        for index in 0..<40 where index < 16 || index >= 28 {
            let time = Double(index) * 0.25
            packets.append(
                MediaPacket(stream: 0, pts: time, dts: time, duration: 0.25, size: 1_000, position: position, isKeyframe: true))
            position += 1_000
        }
        let media = SimulationMedia.progressive(packets: packets, playableStreams: [0])
        let result = SimulationEngine.run(media: media, network: NetworkModel(bitsPerSecond: 1_000_000), policy: .default)
        #expect(result.report.ended)
        #expect(result.report.stallCount == 0)
        let skipped = result.events.first { $0.kind == .gapSkipped }
        #expect(skipped?.position == 4)
        #expect(skipped?.value == 3)
    }

    @Test("the unit parser, trace and engine agree: a 1 Mbit/s, 10 s synthetic file at 2 Mbit/s starts after half a second")
    func syntheticStartup() throws {
        let media = SimulationMedia.progressive(
            packets: SyntheticMedia(bitsPerSecond: try BitRate(parsing: "1Mbit").bitsPerSecond, duration: 10).packets(),
            playableStreams: [0, 1])
        let result = SimulationEngine.run(
            media: media, network: NetworkModel(bitsPerSecond: try BitRate(parsing: "2Mbit").bitsPerSecond), policy: .default)
        // One second of both streams is 125,000 bytes: 0.5 s, give or take the packet that completes it.
        #expect(abs(result.report.startupDelay - 0.5) < 0.02)
        #expect(result.report.stallCount == 0)
    }
}

@Suite("Simulation engine, interactive")
struct SimulationEngineInteractiveTests {
    @Test("actions performed between runs act at the engine's clock: seek, pause until play, rate")
    func perform() {
        var engine = SimulationEngine(
            media: SimulationEngineBehaviourTests.synthetic, network: NetworkModel(bitsPerSecond: 5_000_000),
            policy: .default)
        engine.run(until: 10)
        engine.perform(.seek(30))
        let seek = engine.events.last { $0.kind == .seek }
        #expect(seek?.time == 10)
        #expect(seek?.value == 30)
        engine.run(until: 12)
        engine.perform(.pause(.infinity))
        engine.run(until: 40)
        guard case .paused = engine.player.state else {
            Issue.record("expected paused, got \(engine.player.state.name)")
            return
        }
        let held = engine.player.item.currentTime
        engine.perform(.play)
        engine.perform(.rate(2))
        engine.run()
        #expect(engine.result.report.ended)
        #expect(abs(engine.result.report.pausedTime - 28) < 1e-6)
        // From the play press the remaining media plays at twice the speed.
        #expect(abs(engine.clock - (40 + (120 - held) / 2)) < 0.5)
        #expect(engine.events.filter { $0.kind == .pause }.first?.value == nil)
    }

    @Test("an open-ended pause waits for the viewer while the clock is driven, and is stuck only when run to the end")
    func openEndedPause() {
        var engine = SimulationEngine(
            media: SimulationEngineBehaviourTests.synthetic, network: NetworkModel(bitsPerSecond: 50_000_000),
            policy: BufferPolicy(forwardTarget: 200))
        engine.run(until: 5)
        engine.perform(.pause(.infinity))
        engine.run(until: 100)
        #expect(!engine.isFinished)
        #expect(engine.clock == 100)
        engine.perform(.play)
        engine.run()
        #expect(engine.result.report.ended)
        var abandoned = SimulationEngine(
            media: SimulationEngineBehaviourTests.synthetic, network: NetworkModel(bitsPerSecond: 50_000_000),
            policy: BufferPolicy(forwardTarget: 200))
        abandoned.run(until: 5)
        abandoned.perform(.pause(.infinity))
        abandoned.run()
        #expect(abandoned.events.last?.kind == .stuck)
    }
}
