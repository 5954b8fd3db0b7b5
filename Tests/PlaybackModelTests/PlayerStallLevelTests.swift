import PlaybackModel
import Testing

@Suite("A stall level above 0: the player stalls with that much still buffered ahead (Shaka 3.1: 0.5 s)")
struct PlayerStallLevelTests {
    /// 4 s loaded of 10 s, start at 1 s buffered: with a level of 0.5 the playhead stops at 3.5, without one
    /// at 4.
    @Test("playing stops the level's seconds before the end of the loaded data")
    func stallsAtLevel() throws {
        for (level, expected) in [(0.0, 4.0), (0.5, 3.5)] {
            var policy = BufferPolicy(startThreshold: 1, resumeThreshold: 2, forwardTarget: 30)
            policy.stallLevel = level
            var player = Player(duration: .finite(10), policy: policy, now: 0)
            _ = player.loaded(TimeRange(start: 0, end: 4), now: 0)
            _ = player.advance(to: 10)
            let stall = try #require(player.report.stalls.first)
            #expect(abs(stall.position - expected) < 1e-9, "\(stall)")
            #expect(abs(stall.start - expected) < 1e-9)
        }
    }

    @Test("data that reaches the end of the media plays out to the end, level or not")
    func playsOutTheEnd() {
        var policy = BufferPolicy(startThreshold: 1, resumeThreshold: 2, forwardTarget: 30)
        policy.stallLevel = 0.5
        var player = Player(duration: .finite(4), policy: policy, now: 0)
        _ = player.loaded(TimeRange(start: 0, end: 4), now: 0)
        _ = player.advance(to: 10)
        #expect(player.report.stalls.isEmpty)
        #expect(player.report.ended)
    }

    @Test("the level is validated like the other settings, and kept in JSON only when above 0")
    func validatedAndEncoded() throws {
        var policy = BufferPolicy()
        policy.stallLevel = -1
        #expect(throws: BufferPolicyError.negative(.stallLevel, -1)) { try policy.validate() }
        #expect(PlayerPreset.shaka.policy.stallLevel == 0.5)
        #expect(PlayerPreset.dashjs.policy.stallLevel == 0)
    }
}
