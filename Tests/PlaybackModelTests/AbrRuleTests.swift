import PlaybackModel
import Testing

/// A three-variant CBR ladder, 0.5, 1 and 2 Mbit/s, in 2 s segments, listed highest first (as masters
/// often are) so that the ladder's own ordering is exercised.
func cbrLadder(minutes: Double = 10, rates: [Double] = [2_000_000, 500_000, 1_000_000]) throws -> SimulationLadder {
    let count = Int(minutes * 30)
    let variants = rates.enumerated().map { label, rate in
        SimulationLadder.Variant(
            label: label, bitRate: rate, segmentBytes: Array(repeating: Int64(rate * 2 / 8), count: count))
    }
    return try SimulationLadder(variants: variants, durations: Array(repeating: 2, count: count))
}

/// Runs `rule` over the ladder at a constant `bandwidth` with `latency` per request.
func runLadder(_ ladder: SimulationLadder, rule: AbrRule, bandwidth: Double, latency: Double = 0.02) -> SimulationEngine {
    var engine = SimulationEngine(
        ladder: ladder, rule: rule, network: NetworkModel(bitsPerSecond: bandwidth, latency: latency), policy: .default)
    engine.run()
    return engine
}

@Suite("Adaptive bit rate")
struct AbrRuleTests {
    static let middle = 1_000_000.0

    /// The variants (ascending indices) fetched for the segments of the second half of the media.
    static func steadyState(_ engine: SimulationEngine) -> Set<Int> {
        let half = engine.deliveredVariants.count / 2
        return Set(engine.deliveredVariants[half...])
    }

    @Test(
        "throughput picks the highest variant under 0.9 x the bandwidth and never stalls above 1.2 x the lowest",
        arguments: [(4.0, 2), (1.2, 1), (0.6, 0)])
    func throughputSteadyState(multiple: Double, expected: Int) throws {
        let engine = runLadder(try cbrLadder(), rule: .throughput(.default), bandwidth: multiple * Self.middle)
        #expect(Self.steadyState(engine) == [expected])
        #expect(engine.session.report.stallCount == 0)
        #expect(engine.session.report.ended)
    }

    @Test(
        "bola-basic settles on the variants around the bandwidth (the highest below it, at times the next) and never stalls",
        arguments: [(4.0, Set([2])), (1.2, Set([1, 2])), (0.6, Set([0, 1]))])
    func bolaSteadyState(multiple: Double, allowed: Set<Int>) throws {
        let basic = AbrRule.Bola(bufferTarget: 25, gammaP: 5, variant: .basic)
        let engine = runLadder(try cbrLadder(), rule: .bola(basic), bandwidth: multiple * Self.middle)
        let seen = Self.steadyState(engine)
        #expect(seen.isSubset(of: allowed), "\(seen)")
        #expect(seen.contains(allowed.min() ?? 0))
        #expect(engine.session.report.stallCount == 0)
        #expect(engine.session.report.ended)
        // Over the whole session, the mean bit rate fetched stays within the bandwidth.
        let summary = try #require(AbrSummary(engine: engine))
        #expect(summary.averageBitRate <= multiple * Self.middle)
    }

    @Test(
        "bola-u settles on the same variants mid-stream; it stalls only where Sabre's buffer size shrinks (first and last segments)",
        arguments: [(4.0, Set([2])), (1.2, Set([1, 2])), (0.6, Set([0, 1]))])
    func bolaUSteadyState(multiple: Double, allowed: Set<Int>) throws {
        let engine = runLadder(try cbrLadder(), rule: .bola(.default), bandwidth: multiple * Self.middle)
        // Mid-stream: from half-way to 40 s (20 segments) before the end, where the buffer size is whole.
        let count = engine.deliveredVariants.count
        let seen = Set(engine.deliveredVariants[(count / 2)..<(count - 20)])
        #expect(seen.isSubset(of: allowed), "\(seen)")
        #expect(seen.contains(allowed.min() ?? 0))
        #expect(
            engine.session.report.stalls.allSatisfy { $0.position < 30 || $0.position > 560 },
            "\(engine.session.report.stalls)")
        #expect(engine.session.report.ended)
    }

    @Test(
        "dynamic settles on BOLA-U's variants once buffered (BOLA picks at least throughput's there); like BOLA-U it stalls only in the last segments",
        arguments: [(4.0, Set([2])), (1.2, Set([1, 2])), (0.6, Set([0, 1]))])
    func dynamicSteadyState(multiple: Double, allowed: Set<Int>) throws {
        let engine = runLadder(try cbrLadder(), rule: .defaultDynamic, bandwidth: multiple * Self.middle)
        let count = engine.deliveredVariants.count
        let seen = Set(engine.deliveredVariants[(count / 2)..<(count - 20)])
        #expect(seen == allowed, "\(seen)")
        // Below the top, the variants alternate on BOLA's side (at 4x there is nothing to switch to).
        #expect(multiple == 4 || engine.switches.dropFirst().allSatisfy { $0.reason.hasPrefix("dynamic (bola side)") || $0.segment > count - 20 })
        #expect(engine.session.report.stalls.allSatisfy { $0.position > 560 }, "\(engine.session.report.stalls)")
        #expect(engine.session.report.ended)
    }

    @Test("fixed over a ladder downloads exactly what the one-variant engine downloads")
    func fixedMatchesOneVariant() throws {
        let ladder = try cbrLadder(minutes: 2)
        for index in ladder.variants.indices {
            let network = NetworkModel(bitsPerSecond: 800_000, latency: 0.05)
            let adaptive = runLadder(ladder, rule: .fixed(variant: index), bandwidth: 800_000, latency: 0.05)
            let single = SimulationEngine.run(media: ladder.media(variant: index), network: network, policy: .default)
            #expect(adaptive.result.report == single.report)
            #expect(adaptive.result.bytesReceived == single.bytesReceived)
            #expect(adaptive.switches.isEmpty)
        }
    }

    @Test("the same ladder, rule and network give the same switches and summary")
    func deterministic() throws {
        let ladder = try cbrLadder(minutes: 3)
        var network = NetworkModel(bitsPerSecond: 3_000_000, latency: 0.03)
        network.setBandwidth(600_000, at: 40)
        network.setBandwidth(1_500_000, at: 90)
        let runs = (0..<2).map { _ in
            var engine = SimulationEngine(ladder: ladder, rule: .defaultDynamic, network: network, policy: .default)
            engine.run()
            return (engine.result, AbrSummary(engine: engine))
        }
        #expect(runs[0].0 == runs[1].0)
        #expect(runs[0].1 == runs[1].1)
        #expect(runs[0].1?.switches.isEmpty == false)
    }

    @Test("the QoE score is the mean bit rate less the switch and stall penalties per segment")
    func qoeFormula() throws {
        let ladder = try cbrLadder(minutes: 2)
        var network = NetworkModel(bitsPerSecond: 3_000_000, latency: 0.03)
        network.setBandwidth(300_000, at: 30)
        var engine = SimulationEngine(ladder: ladder, rule: .throughput(.default), network: network, policy: .default)
        engine.run()
        let summary = try #require(AbrSummary(engine: engine, switchWeight: 2, stallWeight: 1000))
        let qoe = summary.qoe
        let expected = qoe.averageBitRate - 2 * qoe.switchMagnitude - 1000 * qoe.stallTime / Double(qoe.segments)
        #expect(abs(qoe.score - expected) < 1e-9)
        #expect(qoe.segments == 60)
        #expect(abs(summary.variants.reduce(0) { $0 + $1.playedTime } - 120) < 1e-9)
        #expect(!summary.switches.isEmpty)
    }

    @Test("abandonment drops a segment that cannot arrive before the buffer runs dry, and stalls less for it")
    func abandonment() throws {
        let ladder = try cbrLadder(minutes: 5)
        var network = NetworkModel(bitsPerSecond: 4_000_000, latency: 0.02)
        network.setBandwidth(300_000, at: 60)
        network.setBandwidth(4_000_000, at: 120)
        var policy = BufferPolicy.default
        policy.forwardTarget = 12
        let runs = [false, true].map { abandon in
            var engine = SimulationEngine(
                ladder: ladder, rule: .throughput(.default), network: network, policy: policy, abandon: abandon)
            engine.run()
            return engine
        }
        #expect(runs[0].abandonedRequests == 0)
        #expect(runs[1].abandonedRequests > 0)
        #expect(runs[1].switches.contains { $0.reason.hasPrefix("abandoned") && $0.to < $0.from })
        #expect(runs[1].session.report.stallTime < runs[0].session.report.stallTime)
        #expect(runs[1].session.report.ended)
    }

    @Test("abandonment never fires when every segment arrives in time (bola-basic, which never stalls here)", arguments: [4.0, 1.2])
    func noAbandonment(multiple: Double) throws {
        var engine = SimulationEngine(
            ladder: try cbrLadder(), rule: .bola(AbrRule.Bola(bufferTarget: 25, gammaP: 5, variant: .basic)),
            network: NetworkModel(bitsPerSecond: multiple * Self.middle, latency: 0.02), policy: .default, abandon: true)
        engine.run()
        #expect(engine.abandonedRequests == 0)
        #expect(engine.session.report.stallCount == 0)
    }

    /// Issue 42's ladder at constant bit rate: 464, 1,064 and 2,564 kbit/s (400k, 1000k and 2500k video with
    /// 64k audio) in 4 s segments, 300 s, over a constant 550 kbit/s link without latency, buffers aligned
    /// with Sabre's `-b 25` (requests at most 21 s buffered). Figures from UMass-LIDS/sabre's `src/sabre.py
    /// -a bola -ma sliding -noa -b 25` (and `-ab`) on the same manifest and trace.
    static func issue42Run(_ rule: AbrRule) throws -> SimulationEngine {
        let count = 75
        let variants = [464_000.0, 1_064_000, 2_564_000].enumerated().map { label, rate in
            SimulationLadder.Variant(
                label: label, bitRate: rate, segmentBytes: Array(repeating: Int64(rate * 4 / 8), count: count))
        }
        let ladder = try SimulationLadder(variants: variants, durations: Array(repeating: 4, count: count))
        var engine = SimulationEngine(
            ladder: ladder, rule: rule, network: NetworkModel(bitsPerSecond: 550_000, latency: 0),
            policy: BufferPolicy(forwardTarget: 21))
        engine.run()
        return engine
    }

    @Test(
        "bola-u at 1.2x the lowest rung climbs where its buffer size shrinks (first and last segments) and stalls there, segment for segment as Sabre's Bola without abandonment"
    )
    func bolaUClimbsAndStallsAsSabre() throws {
        let engine = try Self.issue42Run(.bola(.default))
        // At segment 3 the buffer size is max(3 / 2, 3) x 4 = 12 s, so 1,064k's step is at 5.2 s and 5.25 s
        // buffered climbs; its 7.74 s download stalls 2.49 s. Sabre: 5 rebuffer events, 10.443636 s.
        #expect(
            engine.deliveredVariants.map(String.init).joined()
                == "000100100000000000000001000000100000010000001000000100000010000010101001001")
        #expect(engine.session.report.stallCount == 5)
        #expect(abs(engine.session.report.stallTime - 10.443636) < 0.001, "\(engine.session.report.stallTime)")
        // Mid-stream it climbs at 14 s buffered, as Sabre, and does not stall.
        #expect(engine.session.report.stalls.allSatisfy { $0.position < 30 || $0.position > 260 })
    }

    @Test("bola-basic at 1.2x the lowest rung climbs only at 13.6 s buffered and never stalls, as Sabre's Bola -ab")
    func bolaBasicAtIssue42Rate() throws {
        let engine = try Self.issue42Run(.bola(AbrRule.Bola(bufferTarget: 25, gammaP: 5, variant: .basic)))
        #expect(
            engine.deliveredVariants.map(String.init).joined()
                == "000000000000000001000000100000010000001000000100000010000001000000100000010")
        #expect(engine.session.report.stallCount == 0)
    }

    @Test("a ladder whose variants list different segment counts is refused")
    func misaligned() {
        let variants = [
            SimulationLadder.Variant(label: 0, bitRate: 1, segmentBytes: [1, 2]),
            SimulationLadder.Variant(label: 1, bitRate: 2, segmentBytes: [1]),
        ]
        #expect(throws: SimulationLadder.Problem.misaligned(label: 1, segments: 1, expected: 2)) {
            try SimulationLadder(variants: variants, durations: [2, 2])
        }
    }
}
