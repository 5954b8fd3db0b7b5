import Testing

@testable import PlaybackModel

/// A player model that asks for the lowest variant for its first `upAfter` requests, then the highest,
/// with a fast-switch level of its own: the engine's side of `PlayerAbrModel.fastSwitchLevel` alone.
private struct StepUpModel: PlayerAbrModel {
    var upAfter: Int
    var fastSwitchLevel: Double?
    var requests = 0

    var name: String { "step-up" }
    var parameters: [String: Double] { [:] }

    mutating func choose(_ context: PlayerAbrContext) -> AbrDecision {
        requests += 1
        return AbrDecision(variant: requests > upAfter ? context.bitRates.count - 1 : 0, reason: "step up")
    }

    mutating func recordDownload(_ download: PlayerAbrDownload) {}

    func overriding(safetyFactor: Double?) -> StepUpModel { self }
}

/// dash.js's fast switch in the engine (`VariantSelection.fastSwitchSegment`): after an up-switch, the
/// next request goes back to the buffered segment at the playhead + level x segment duration and replaces
/// it and the ones after it; the request log calls those requests `replacement`.
@Suite struct FastSwitchTests {
    /// 10 segments of 2 s, 0.5 and 2 Mbit/s, on a 20 Mbit/s link: the buffer fills far ahead at once.
    static func run(level: Double?) throws -> SimulationEngine {
        let variants = [500_000.0, 2_000_000].enumerated().map { label, rate in
            SimulationLadder.Variant(
                label: label, bitRate: rate, segmentBytes: Array(repeating: Int64(rate * 2 / 8), count: 10))
        }
        let ladder = try SimulationLadder(variants: variants, durations: Array(repeating: 2, count: 10))
        let model = StepUpModel(upAfter: 5, fastSwitchLevel: level)
        var engine = SimulationEngine(
            ladder: ladder, rule: .player(PlayerAbr(model)), network: NetworkModel(bitsPerSecond: 20_000_000),
            policy: .default)
        engine.run()
        return engine
    }

    @Test("with a level of 1.5 the up-switch at segment 5 goes back to segment 1 (holding 0 + 3 s) and replaces 1-4")
    func replacesBufferedSegments() throws {
        let engine = try Self.run(level: 1.5)
        let replaced = engine.requestLog.filter { $0.kind == .replacement }.compactMap(\.segment)
        // The playhead is still at the start when the 6th request is chosen: 3 s ahead is segment 1.
        #expect(replaced == [1, 2, 3, 4])
        #expect(engine.deliveredVariants == [0, 1, 1, 1, 1, 1, 1, 1, 1, 1])
        #expect(engine.switches.first?.segment == 1)
    }

    @Test("without a level (every player but dash.js) the new variant follows the buffered segments")
    func noLevelAppends() throws {
        let engine = try Self.run(level: nil)
        #expect(!engine.requestLog.contains { $0.kind == .replacement })
        #expect(engine.deliveredVariants == [0, 0, 0, 0, 0, 1, 1, 1, 1, 1])
    }

    @Test("with less than level x segment duration buffered ahead, nothing is replaced")
    func shortBufferAppends() throws {
        // 100 x 2 s: more than the media holds.
        let engine = try Self.run(level: 100)
        #expect(!engine.requestLog.contains { $0.kind == .replacement })
        #expect(engine.deliveredVariants == [0, 0, 0, 0, 0, 1, 1, 1, 1, 1])
    }

    @Test("dash.js 5.1.1's level is 1.5 x a null fragmentDuration = 0: the segment holding the playhead")
    func dashjsLevel() throws {
        #expect(DashjsAbr().fastSwitchLevel == 0)
        // At level 0 the up-switch goes back to segment 0, which holds the playhead at the start.
        let engine = try Self.run(level: 0)
        #expect(engine.requestLog.filter { $0.kind == .replacement }.compactMap(\.segment) == [0, 1, 2, 3, 4])
        #expect(engine.deliveredVariants == Array(repeating: 1, count: 10))
        #expect(ShakaAbr().fastSwitchLevel == nil)
    }
}
