import Foundation
import PlaybackModel
import Testing

@Suite("A stall nudge: the player's watchdog seeks the playhead on after a while stalled with data ahead (hls.js)")
struct PlayerStallNudgeTests {
    /// hls.js on Chromium: start at 0.2 s, resume at 0.4 s doubling per stall to 3 s, nudged after 2.1 s.
    func player(nudge: StallNudge?) -> Player {
        var policy = BufferPolicy(
            startThreshold: 0.2, resumeThreshold: 0.4, forwardTarget: 30, backBuffer: .infinity,
            resumeGrowth: .doubling(cap: 3))
        policy.stallNudge = nudge
        return Player(duration: .finite(30), policy: policy, now: 0)
    }

    /// Segments of 2 s, each appended 0.1 s after the playhead reached the end of the last: stalls 1-3
    /// since the start end at the append (0.4, 0.8, 1.6 s needed, 2 s came), the fourth needs 3 s.
    func playFourStalls(_ player: inout Player) {
        _ = player.loaded(TimeRange(start: 0, end: 2), now: 0)
        var now = 0.0
        for segment in 1...4 {
            now += 2.1
            _ = player.loaded(TimeRange(start: 0, end: Double(segment + 1) * 2), now: now)
        }
        _ = player.advance(to: now + 3)
    }

    @Test("without the nudge the fourth stall lasts until 3 s are buffered; with it, 2.1 s after it began, 0.1 s on")
    func fourthStall() throws {
        var plain = player(nudge: nil)
        playFourStalls(&plain)
        let plainStalls = plain.report.stalls
        // Stalls at 2, 4, 6, 8 (0.1 s each but the fourth): 10 s loaded at 8.4 s never reaches 3 s ahead
        // of 8, so the fourth is still open at 11.4.
        #expect(plainStalls.count == 4)
        #expect(plainStalls.prefix(3).allSatisfy { abs($0.duration - 0.1) < 1e-9 }, "\(plainStalls)")
        #expect(Self.stalled(plain.state))

        var nudged = player(nudge: .hlsjs)
        playFourStalls(&nudged)
        let stalls = nudged.report.stalls
        #expect(stalls.count == 4)
        let fourth = try #require(stalls.last)
        #expect(abs(fourth.start - 8.3) < 1e-9 && abs(fourth.duration - 2.1) < 1e-9, "\(stalls)")
        // Played from 10.4 s at 8.1 (8 + the first 0.1 s nudge): at 11.4, 9.1.
        #expect(abs(nudged.currentTime - 9.1) < 1e-9)
    }

    @Test("the nudge is a seek: the doubling starts over, and the next stall ends by itself")
    func startsOver() throws {
        var nudged = player(nudge: .hlsjs)
        playFourStalls(&nudged)
        // At 11.4 s, 9.1 s played of 10 loaded: the next stall at 10 (12.3 s), with 2 s appended 0.1 s later,
        // resumes (0.4 s needed after a seek), not nudged.
        _ = nudged.loaded(TimeRange(start: 0, end: 12), now: 12.4)
        _ = nudged.advance(to: 12.5)
        let fifth = try #require(nudged.report.stalls.last)
        #expect(nudged.report.stalls.count == 5 && abs(fifth.duration - 0.1) < 1e-9, "\(nudged.report.stalls)")
        #expect(Self.playing(nudged.state, since: 12.4), "\(nudged.state)")
    }

    @Test("nudged stalls in a row add up (0.1 s, then 0.2 s); a stall that ends by itself starts the count over (0.1 s again)")
    func countStartsOver() throws {
        var nudged = player(nudge: .hlsjs)
        // Stalled at 2 (t 2), data at 4.5: nudged 0.1 s (to 2.1). Stalled at 4 (t 6.4), data at 9: nudged 0.2 s.
        _ = nudged.loaded(TimeRange(start: 0, end: 2), now: 0)
        _ = nudged.loaded(TimeRange(start: 0, end: 4), now: 4.5)
        #expect(abs(nudged.currentTime - 2.1) < 1e-9)
        _ = nudged.loaded(TimeRange(start: 0, end: 6), now: 9)
        #expect(abs(nudged.currentTime - 4.2) < 1e-9, "\(nudged.currentTime)")
        // Stalled at 6 (t 10.8), 2 s appended 0.1 s later: resumes by itself (0.4 s needed after the seek).
        _ = nudged.loaded(TimeRange(start: 0, end: 8), now: 10.9)
        #expect(Self.playing(nudged.state, since: 10.9), "\(nudged.state)")
        // Stalled at 8 (t 12.9), data at 15.5: the nudge is the first of a new row, 0.1 s (the old count would
        // have moved 0.3 s).
        _ = nudged.loaded(TimeRange(start: 0, end: 10), now: 15.5)
        #expect(abs(nudged.currentTime - 8.1) < 1e-9, "\(nudged.currentTime)")
        #expect(nudged.report.failure == nil && nudged.report.stalls.count == 4)
    }

    @Test("when a nudge is due after the last one allowed, playback fails (hls.js: the fourth, after 3)")
    func givesUp() throws {
        var once = player(nudge: StallNudge(period: 2.1, minimumAhead: 0.1, offset: 0.1, maxNudges: 1))
        // Stalled at 2 (t 2) with nothing coming until 4.5 s: then nudged as the data is appended (2.5 s > 2.1).
        _ = once.loaded(TimeRange(start: 0, end: 2), now: 0)
        _ = once.loaded(TimeRange(start: 0, end: 4), now: 4.5)
        #expect(abs(once.currentTime - 2.1) < 1e-9 && once.report.failure == nil)
        // Stalled again at 4 (t 6.4); data at 9: a second nudge is due, so playback fails with the stall ended.
        _ = once.loaded(TimeRange(start: 0, end: 6), now: 9)
        #expect(once.report.failure == StallNudge(period: 2.1, minimumAhead: 0.1, offset: 0.1, maxNudges: 1).failure)
        #expect(once.report.stalls.count == 2 && abs((once.report.stalls.last?.duration ?? 0) - 2.6) < 1e-9)
        #expect(StallNudge.hlsjs.maxNudges == 3)
    }

    static func stalled(_ state: PlayerState) -> Bool {
        if case .stalled = state { return true }
        return false
    }

    static func playing(_ state: PlayerState, since expected: Double) -> Bool {
        if case .playing(let since) = state { return abs(since - expected) < 1e-9 }
        return false
    }

    @Test("kept in JSON only when set, and validated like the other settings")
    func encoded() throws {
        var broken = PlayerPreset.hlsjs.policy
        broken.stallNudge?.period = -1
        #expect(throws: BufferPolicyError.negative(.stallNudge, -1)) { try broken.validate() }
        broken.stallNudge = StallNudge(period: 2, minimumAhead: .infinity, offset: 0.1)
        #expect(throws: BufferPolicyError.notFinite(.stallNudge)) { try broken.validate() }
        let json = String(decoding: try JSONEncoder().encode(PlayerPreset.hlsjs.policy), as: UTF8.self)
        #expect(json.contains("\"stall_nudge\":{"))
        #expect(json.contains("\"minimum_ahead\":0.1"))
        #expect(try JSONDecoder().decode(BufferPolicy.self, from: Data(json.utf8)) == PlayerPreset.hlsjs.policy)
        #expect(!String(decoding: try JSONEncoder().encode(BufferPolicy.default), as: UTF8.self).contains("stall_nudge"))
    }
}
