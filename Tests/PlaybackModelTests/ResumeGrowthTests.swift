import Foundation
import PlaybackModel
import Testing

private func range(_ start: Double, _ end: Double) -> TimeRange { TimeRange(start: start, end: end) }

@Suite("Resume threshold growth and player presets")
struct ResumeGrowthTests {
    @Test(
        "a doubling resume threshold after stall n is min(resume * 2^(n-1), cap)",
        arguments: [(1, 0.4), (2, 0.8), (3, 1.6), (4, 3.0), (5, 3.0), (1_000_000, 3.0)])
    func doublingClosedForm(stall: Int, expected: Double) {
        let policy = BufferPolicy(startThreshold: 0.2, resumeThreshold: 0.4, resumeGrowth: .doubling(cap: 3))
        #expect(abs(policy.resumeThreshold(afterStall: stall) - expected) < 1e-12)
    }

    @Test("a fixed resume threshold is the same after every stall, and a cap below it never lowers it")
    func fixedAndLowCap() {
        let fixed = BufferPolicy()
        #expect([1, 2, 7, 100].map { fixed.resumeThreshold(afterStall: $0) } == [2, 2, 2, 2])
        let lowCap = BufferPolicy(resumeThreshold: 2, resumeGrowth: .doubling(cap: 1))
        #expect(lowCap.resumeThreshold(afterStall: 3) == 2)
        #expect(throws: BufferPolicyError.capBelowResume(cap: 1, resume: 2)) { try lowCap.validate() }
        #expect(throws: BufferPolicyError.notFinite(.resumeCap)) {
            try BufferPolicy(resumeGrowth: .doubling(cap: .infinity)).validate()
        }
    }

    @Test("the player resumes stall n at the doubled threshold (not the start threshold), and a seek starts the doubling over")
    func playerDoublesThenSeekResets() {
        let policy = BufferPolicy(
            startThreshold: 0.25, resumeThreshold: 0.5, backBuffer: .infinity, resumeGrowth: .doubling(cap: 3))
        var player = Player(duration: .finite(10), policy: policy, timeObserverInterval: nil, now: 0)
        _ = player.advance(to: 0)
        _ = player.loaded(range(0, 1), now: 0)
        _ = player.advance(to: 1.5)
        #expect(player.state == .stalled(position: 1, since: 1))
        // Stall 1 needs 0.5 s: 0.25 s (the start threshold) is not enough.
        #expect(player.loaded(range(1, 1.25), now: 2).isEmpty)
        #expect(player.loaded(range(1.25, 1.5), now: 3).contains(.stallEnded(position: 1, duration: 2)))
        _ = player.advance(to: 4)
        #expect(player.state == .stalled(position: 1.5, since: 3.5))
        // Stall 2 needs 1 s: 0.5 s (the first stall's threshold) is not enough.
        #expect(player.loaded(range(1.5, 2), now: 4).isEmpty)
        #expect(player.loaded(range(2, 2.5), now: 5).contains(.stallEnded(position: 1.5, duration: 1.5)))
        #expect(player.item.stallsSinceSeek == 2)
        _ = player.seek(to: 0.5, now: 5)
        #expect(player.item.stallsSinceSeek == 0)
        _ = player.advance(to: 7.5)
        #expect(player.state == .stalled(position: 2.5, since: 7))
        // The first stall after the seek needs 0.5 s again.
        #expect(player.loaded(range(2.5, 3), now: 8).contains(.stallEnded(position: 2.5, duration: 1)))
        #expect(player.report.stallCount == 3)
    }

    @Test("a doubling resume threshold round-trips through JSON as resume_cap; a fixed one writes no resume_cap")
    func codable() throws {
        let policy = BufferPolicy(startThreshold: 0.2, resumeThreshold: 0.4, resumeGrowth: .doubling(cap: 3))
        let data = try JSONEncoder().encode(policy)
        #expect(String(decoding: data, as: UTF8.self).contains("\"resume_cap\":3"))
        #expect(try JSONDecoder().decode(BufferPolicy.self, from: data) == policy)
        #expect(!String(decoding: try JSONEncoder().encode(BufferPolicy.default), as: UTF8.self).contains("resume_cap"))
    }

    @Test("every preset is a valid policy; media3 is bufprobe's default; Chromium and hls.js on it grow to its 3 s; dash.js (MSE) resumes at its start threshold; Shaka waits for its 2 s rebuffering goal")
    func presets() throws {
        for preset in PlayerPreset.allCases { try preset.policy.validate() }
        #expect(PlayerPreset.media3.policy == .default)
        for preset in [PlayerPreset.chromium, .hlsjs] {
            #expect(preset.policy.startThreshold == 0.2)
            #expect(preset.policy.resumeGrowth == .doubling(cap: 3))
            #expect(preset.policy.resumeThreshold(afterStall: 1) == 0.4)
        }
        #expect(PlayerPreset.hlsjs.policy.resumeThreshold(afterStall: 4) == 3)
        #expect(PlayerPreset.hlsjs.policy.stallNudge == StallNudge(period: 2.1, minimumAhead: 0.1, offset: 0.1, maxNudges: 3))
        #expect(PlayerPreset.chromium.policy.stallNudge == nil && PlayerPreset.dashjs.policy.stallNudge == nil)
        #expect(PlayerPreset.shaka.policy.startThreshold == 2 && PlayerPreset.shaka.policy.resumeThreshold == 2)
        #expect(PlayerPreset.shaka.policy.resumeGrowth == .fixed && PlayerPreset.shaka.policy.forwardTarget == 10)
        #expect(PlayerPreset.dashjs.policy.startThreshold == 0.2 && PlayerPreset.dashjs.policy.resumeThreshold == 0.2)
        #expect(PlayerPreset.dashjs.policy.resumeGrowth == .fixed && PlayerPreset.dashjs.policy.forwardTarget == 18)
        #expect(PlayerPreset(name: "dash.js") == .dashjs && PlayerPreset(name: "Shaka") == .shaka)
        #expect(PlayerPreset.mpv.policy.startThreshold == 0)
        #expect(PlayerPreset.mpv.policy.resumeThreshold == 1.3)
        #expect(PlayerPreset.avplayer.policy.keepUp == .predictive(horizon: nil))
        #expect(PlayerPreset(name: "ExoPlayer") == .media3 && PlayerPreset(name: "hls.js") == .hlsjs)
        #expect(PlayerPreset(name: "VLC") == .vlc && PlayerPreset(name: "winamp") == nil)
    }
}
