import PlaybackModel
import Testing

/// Media whose first 5 s are eight times denser than the rest: two streams, 25 fps video, 50 audio packets
/// per second, interleaved in presentation order after a 2,000-byte header.
func denseStartMedia() -> SimulationMedia {
    var packets: [MediaPacket] = []
    var position: Int64 = 2_000
    for index in 0..<(30 * 75) {
        let isVideo = index % 3 == 0
        let time = Double(index / 3) * 0.04 + (isVideo ? 0 : Double(index % 3 - 1) * 0.02)
        let dense = time < 5
        let size = isVideo ? (dense ? 20_000 : 2_500) : 400
        packets.append(
            MediaPacket(
                stream: isVideo ? 0 : 1, pts: time, dts: time, duration: isVideo ? 0.04 : 0.02, size: size,
                position: position, isKeyframe: !isVideo || (index / 3) % 50 == 0))
        position += Int64(size)
    }
    return .progressive(packets: packets, playableStreams: [0, 1])
}

/// The needs of `media` asked one figure at a time, through the shared `ProgressiveDownloadNeeds`.
private struct Needs {
    let media: SimulationMedia

    func minimumBandwidth(startupDelay: Double, latency: Double = 0) -> Double {
        media.needs(startupDelays: [startupDelay], bandwidths: [1], latency: latency)
            .minimumBandwidth(forStartupDelayAt: 0) ?? .infinity
    }

    func minimumStartupDelay(bitsPerSecond: Double, latency: Double = 0) -> Double {
        media.needs(startupDelays: [], bandwidths: [bitsPerSecond], latency: latency).startupDelay(atBandwidthAt: 0)
    }
}

@Suite("Simulation agrees with the progressive needs")
struct SimulationNeedsTests {
    static let media: [(String, SimulationMedia)] = [
        ("dense start", denseStartMedia()),
        (
            "synthetic VBR",
            .progressive(
                packets: SyntheticMedia(bitsPerSecond: 2_000_000, duration: 60, variation: 0.6, seed: 3).packets(),
                playableStreams: [0, 1])
        ),
        ("constant bit rate", constantBitRateMedia(seconds: 10, bytesPerSecond: 16_000)),
    ]

    @Test(
        "preloading D seconds then playing never stalls at the minimum bandwidth for D plus 1%, and stalls at minus 5%",
        arguments: [1.0, 2.0, 5.0, 10.0], [0.0, 0.08])
    func minimumBandwidthAgrees(startupDelay: Double, latency: Double) {
        for (name, media) in Self.media {
            let needs = Needs(media: media)
            let minimum = needs.minimumBandwidth(startupDelay: startupDelay, latency: latency)
            #expect(minimum.isFinite && minimum > 0, "\(name)")
            // The player starts at the press as soon as anything is buffered: the startup delay is exactly D.
            let policy = BufferPolicy(startThreshold: 0, resumeThreshold: 0)
            let steps = [SimulationStep(time: startupDelay, action: .play)]
            let above = SimulationEngine.run(
                media: media, network: NetworkModel(bitsPerSecond: minimum * 1.01, latency: latency), policy: policy,
                steps: steps, autoplay: false)
            #expect(above.report.stallCount == 0, "\(name) at D = \(startupDelay) s, latency \(latency) s")
            #expect(above.report.ended, "\(name)")
            let below = SimulationEngine.run(
                media: media, network: NetworkModel(bitsPerSecond: minimum * 0.95, latency: latency), policy: policy,
                steps: steps, autoplay: false)
            #expect(below.report.stallCount > 0, "\(name) at D = \(startupDelay) s, latency \(latency) s")
        }
    }

    @Test("the minimum startup delay at the minimum bandwidth for D is D again")
    func inverse() {
        for (_, media) in Self.media {
            let needs = Needs(media: media)
            for delay in [1.0, 3.0, 8.0] {
                let bandwidth = needs.minimumBandwidth(startupDelay: delay, latency: 0.05)
                #expect(abs(needs.minimumStartupDelay(bitsPerSecond: bandwidth, latency: 0.05) - delay) < 1e-9)
            }
        }
    }

    @Test("a CBR file of length T and size S needs S / (T + D) for startup delay D when its deadlines bind at the end")
    func constantBitRateClosedForm() {
        let media = constantBitRateMedia(seconds: 10, bytesPerSecond: 16_000)
        let needs = Needs(media: media)
        // The last packet starts at 9.75 s and ends the file at byte 160,044.
        for delay in [1.0, 2.0, 5.0] {
            let expected = 160_044.0 * 8 / (delay + 9.75)
            #expect(abs(needs.minimumBandwidth(startupDelay: delay) - expected) < 1e-6)
        }
    }

    @Test("with autoplay, a run without stalls started no earlier than the minimum startup delay at its bandwidth")
    func autoplayStartupIsAboveTheMinimum() {
        for (name, media) in Self.media {
            let needs = Needs(media: media)
            for bandwidth in [300_000.0, 1_000_000.0, 3_000_000.0, 10_000_000.0] {
                let result = SimulationEngine.run(
                    media: media, network: NetworkModel(bitsPerSecond: bandwidth, latency: 0.03), policy: .default)
                let minimum = needs.minimumStartupDelay(bitsPerSecond: bandwidth, latency: 0.03)
                if result.report.stallCount == 0 {
                    #expect(result.report.startupDelay >= minimum - 0.1, "\(name) at \(bandwidth)")
                } else {
                    #expect(result.report.startupDelay < minimum, "\(name) at \(bandwidth)")
                }
            }
        }
    }

    @Test("an index after the media holds every packet back until it is in, in the engine and in the needs alike")
    func indexAtEnd() {
        let packets = SyntheticMedia(bitsPerSecond: 800_000, duration: 20).packets()
        let size = Int64(packets.reduce(0) { $0 + $1.size }) + 5_000
        let media = SimulationMedia.progressive(packets: packets, playableStreams: [0, 1], indexByteEnd: size)
        let result = SimulationEngine.run(media: media, network: NetworkModel(bitsPerSecond: 1_000_000), policy: .default)
        #expect(abs(result.report.startupDelay - Double(size) * 8 / 1_000_000) < 1e-9)
        #expect(result.report.stallCount == 0)
        #expect(result.bytesReceived == size)
        let needs = Needs(media: media)
        #expect(abs(needs.minimumStartupDelay(bitsPerSecond: 1_000_000) - Double(size) * 8 / 1_000_000) < 1e-9)
        #expect(abs(needs.minimumBandwidth(startupDelay: 4) - Double(size) * 8 / 4) < 1e-6)
    }
}
