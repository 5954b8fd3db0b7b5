import PlaybackModel
import Testing

/// The CBR ladder of `cbrLadder` with an initialization segment per variant (variant `i` listed: 1,000 x
/// (i + 1) bytes + 700, so each is told apart by its size).
func ladderWithInitialization(minutes: Double = 2) throws -> SimulationLadder {
    let plain = try cbrLadder(minutes: minutes)
    let variants = plain.variants.map { variant in
        SimulationLadder.Variant(
            label: variant.label, bitRate: variant.bitRate, segmentBytes: variant.segmentBytes,
            initializationBytes: Int64(1_000 * (variant.label + 1) + 700))
    }
    return try SimulationLadder(variants: variants, durations: plain.durations)
}

@Suite("Initialization segments (EXT-X-MAP, DASH Initialization): once per variant, a request of their own")
struct InitializationSegmentTests {
    @Test("one variant: the initialization segment is one more request and its bytes, once, before the first segment")
    func oneVariant() throws {
        let segments = Array(repeating: (duration: 2.0, bytes: Int64(250_000)), count: 10)
        let latency = 0.1
        let network = NetworkModel(bitsPerSecond: 1_000_000, latency: latency)
        let with = SimulationEngine.run(
            media: .segmented(segments, initializationBytes: 50_000), network: network, policy: .default)
        let without = SimulationEngine.run(media: .segmented(segments), network: network, policy: .default)
        #expect(with.requests == without.requests + 1)
        #expect(with.bytesReceived == without.bytesReceived + 50_000)
        // Two requests before the first segment is in: its latency and 0.4 s of its bytes come first.
        let startup = with.report.startupDelay
        let plain = without.report.startupDelay
        #expect(abs(startup - plain - (latency + 0.4)) < 1e-9, "\(startup) vs \(plain)")
    }

    @Test("a seek back into evicted media never fetches the initialization segment again")
    func afterSeek() throws {
        let segments = Array(repeating: (duration: 2.0, bytes: Int64(250_000)), count: 30)
        let network = NetworkModel(bitsPerSecond: 4_000_000, latency: 0.05)
        let steps = [SimulationStep(time: 30, action: .seek(2))]
        let with = SimulationEngine.run(
            media: .segmented(segments, initializationBytes: 9_000), network: network, policy: .default, steps: steps)
        let without = SimulationEngine.run(media: .segmented(segments), network: network, policy: .default, steps: steps)
        #expect(with.requests == without.requests + 1)
        #expect(with.bytesReceived == without.bytesReceived + 9_000)
    }

    @Test("over a ladder each variant's initialization segment is fetched once, the first time the rule picks it")
    func oncePerVariant() throws {
        let ladder = try ladderWithInitialization(minutes: 4)
        let plain = try cbrLadder(minutes: 4)
        // Plenty, then scarce, then plenty: the rule climbs, falls and climbs back to variants it used.
        let network = NetworkModel(
            trace: try NetworkTrace(steps: [
                .init(duration: 30, bitsPerSecond: 4_000_000), .init(duration: 40, bitsPerSecond: 700_000),
                .init(duration: 170, bitsPerSecond: 4_000_000),
            ]), latency: 0.02)
        var with = SimulationEngine(ladder: ladder, rule: .throughput(.default), network: network, policy: .default)
        with.run()
        var without = SimulationEngine(ladder: plain, rule: .throughput(.default), network: network, policy: .default)
        without.run()
        let used = Set(with.deliveredVariants.filter { $0 >= 0 })
        #expect(used.count >= 2, "the test needs the rule to use several variants: \(used)")
        #expect(with.switches.count > used.count, "and to come back to a variant it used: \(with.switches)")
        let initialization = used.map { ladder.variants[$0].initializationBytes }.reduce(0, +)
        let segments = zip(with.deliveredVariants.indices, with.deliveredVariants)
            .map { index, variant in ladder.variants[variant].segmentBytes[index] }.reduce(0, +)
        #expect(with.bytesReceived == segments + initialization)
        #expect(with.requests == ladder.durations.count + used.count)
        // The per-variant bytes hold the initialization segment too.
        for variant in used {
            let own = with.deliveredVariants.indices.filter { with.deliveredVariants[$0] == variant }
                .map { ladder.variants[variant].segmentBytes[$0] }.reduce(0, +)
            #expect(with.deliveredPerVariant[variant].bytes == own + ladder.variants[variant].initializationBytes)
        }
        #expect(without.requests == plain.durations.count)
    }

    @Test("fixed over a ladder with initialization segments matches the one-variant engine")
    func fixedMatches() throws {
        let ladder = try ladderWithInitialization()
        for index in ladder.variants.indices {
            let network = NetworkModel(bitsPerSecond: 800_000, latency: 0.05)
            let adaptive = runLadder(ladder, rule: .fixed(variant: index), bandwidth: 800_000, latency: 0.05)
            let single = SimulationEngine.run(media: ladder.media(variant: index), network: network, policy: .default)
            #expect(adaptive.result.report == single.report)
            #expect(adaptive.result.bytesReceived == single.bytesReceived)
            #expect(adaptive.result.requests == single.requests)
        }
    }
}
