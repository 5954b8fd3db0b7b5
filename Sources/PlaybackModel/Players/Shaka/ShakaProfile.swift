/// Shaka Player 3.1 on Chromium: holds the playback rate at 0 until `rebufferingGoal` 2 s (or the MPD's
/// `minBufferTime`, when larger) is buffered, at start and after a stall, and stalls itself at 0.5 s
/// ahead; `bufferingGoal` 10 s ahead, `bufferBehind` 30 s. On `simulate` its ABR too (`ShakaAbr`), and its
/// separate audio track runs at most one segment ahead of the video.
public struct ShakaProfile: PlayerProfile {
    /// Shaka's `rebufferingGoal` (lib/util/player_configuration.js 117), seconds.
    public static let rebufferingGoal = 2.0
    /// Where Shaka 3.1 starts buffering (rate 0) while playing: min(`TYPICAL_BUFFERING_THRESHOLD_` 0.5 s,
    /// half the rebuffering goal) ahead (`updateBufferingSettings_`, `lib/player.js` 2543-2555, 5940),
    /// polled every 250 ms (2534; bufprobe stalls at the level itself).
    public static func stallLevel(goal: Double) -> Double { min(0.5, goal / 2) }

    /// The profile.
    public init() {}

    /// `shaka`.
    public var name: String { "shaka" }
    /// `shaka-player`.
    public var aliases: [String] { ["shaka-player"] }
    /// `Shaka Player 3.1`.
    public var playerName: String { "Shaka Player 3.1" }
    /// Benchmarks/README.md's `webplayers.sh` run of 2026-11-28 at 943ec17.
    public var measuredAgreement: String { "simulate agreed in 11 of 12 cases" }
    /// Shaka's configuration and player.
    public var source: String {
        "Shaka 3.1 lib/util/player_configuration.js 117-119 (rebufferingGoal 2, bufferingGoal 10, bufferBehind 30); lib/player.js 1847-1849 (max with the MPD's minBufferTime), 2543-2555 (stalls at 0.5 s ahead)"
    }

    /// 2 s to start and resume, 10 s ahead, 30 s behind, a stall at 0.5 s ahead.
    public var policy: BufferPolicy {
        var policy = BufferPolicy(
            startThreshold: Self.rebufferingGoal, resumeThreshold: Self.rebufferingGoal, forwardTarget: 10,
            backBuffer: 30)
        policy.stallLevel = Self.stallLevel(goal: Self.rebufferingGoal)
        return policy
    }

    /// Shaka 3.1 waits (at the start and after a stall) for `max(rebufferingGoal, minBufferTime)` ahead of
    /// the playhead (`lib/player.js` 1847-1849), counted on the media element's `buffered`, the
    /// intersection of the audio and video source buffers; an AAC track ends each segment on a whole frame
    /// before the video's boundary (measured in Chromium: 3.989 s buffered after segments ending at 4 s),
    /// so a lead of exactly the goal is never reached at a boundary: one audio frame is added. Its
    /// streaming engine loads each track up to `max(minBufferTime, rebufferingGoal, bufferingGoal)` ahead
    /// (`lib/media/streaming_engine.js` 963-966), so a `minBufferTime` above the 10 s buffering goal raises
    /// the forward target with it: the target is never below the rebuffering goal, and the derived policy
    /// is always one that can play. No hints keep `policy`.
    public func policy(for hints: PlayerPreset.ManifestHints?) -> BufferPolicy {
        var policy = self.policy
        guard let hints else { return policy }
        let goal = max(Self.rebufferingGoal, hints.minBufferTime ?? 0) + (hints.audioFrame ?? 0)
        policy.startThreshold = goal
        policy.resumeThreshold = goal
        policy.forwardTarget = max(policy.forwardTarget, goal)
        policy.stallLevel = Self.stallLevel(goal: goal)
        return policy
    }

    /// The rebuffering goal (start, resume, stall level) or the buffering goal (forward target) raised to
    /// the manifest's `minBufferTime`, when it is.
    public func derivation(of setting: BufferPolicyError.Setting, hints: PlayerPreset.ManifestHints?) -> String? {
        guard let hints, let minBufferTime = hints.minBufferTime, minBufferTime > Self.rebufferingGoal else {
            return nil
        }
        switch setting {
        case .startThreshold, .resumeThreshold, .stallLevel:
            return "Shaka's rebuffering goal raised to the manifest's minBufferTime"
        case .forwardTarget where minBufferTime + (hints.audioFrame ?? 0) > self.policy.forwardTarget:
            return "Shaka's buffering goal raised to the manifest's minBufferTime"
        default:
            return nil
        }
    }

    /// `ShakaAbr`.
    public var abr: PlayerAbr? { PlayerAbr(ShakaAbr()) }

    /// Shaka 3.1's `MAX_RUN_AHEAD_SEGMENTS_` 1 (`lib/media/streaming_engine.js` 2061) x the presentation's
    /// `maxSegmentDuration`, its stream waiting and looking again 1 s later (`update_`, 1020-1043). No
    /// video-underflow grace: it sets the rate to 0 itself while the media element's `buffered` is short,
    /// so the renderer never runs out.
    public var audioRunAheadSegments: Double? { 1 }
}
