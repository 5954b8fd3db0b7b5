/// When a player starts, resumes and stops loading: the thresholds of Media3's `DefaultLoadControl`.
///
/// Defaults (documented in `--help` and the README): start playback once 1 s is buffered ahead, resume
/// after a stall once 2 s is, stop loading at 50 s ahead, keep no data behind the playhead (Media3's
/// default back buffer is 0), and decide "likely to keep up" by threshold.
public struct BufferPolicy: Sendable, Hashable {
    /// How `isPlaybackLikelyToKeepUp` is decided.
    public enum KeepUpRule: Sendable, Hashable {
        /// Likely to keep up once `bufferedAhead` reaches the start threshold (the resume threshold after
        /// a stall). Media3's rule, and the default.
        case threshold
        /// AVPlayer's kind of rule: a prediction from the throughput estimate. Likely to keep up when the
        /// data still missing for the next `horizon` seconds of media (to the end of the media when `nil`)
        /// downloads, at the estimated throughput, before the playhead gets there. Falls back to the
        /// threshold rule while no estimate is known, or when `horizon` is `nil` and the end is unknown.
        case predictive(horizon: Double?)
        /// A player's own rule (`PlayerStartRule`), for a player whose start and resume no threshold on
        /// the seconds ahead states. Scripts cannot name one: only a `PlayerProfile` sets it.
        case player(PlayerStart)
    }

    /// How the resume threshold changes from one stall to the next.
    public enum ResumeGrowth: Sendable, Hashable {
        /// The same resume threshold after every stall (Media3, mpv, Shaka with a `rebufferingGoal`).
        case fixed
        /// Chromium's rule: every stall doubles the threshold, up to `cap` seconds; a seek starts over.
        /// After stall n (counted from the last seek) playback resumes at
        /// `min(resumeThreshold * 2^(n-1), max(cap, resumeThreshold))`.
        case doubling(cap: Double)
    }

    /// Seconds buffered ahead needed to start playback, and to finish a seek while playing (Media3's
    /// `bufferForPlaybackMs`, 1 s).
    public var startThreshold: Double
    /// Seconds buffered ahead needed to resume after a stall (Media3's `bufferForPlaybackAfterRebufferMs`,
    /// 2 s).
    public var resumeThreshold: Double
    /// Seconds buffered ahead at which loading stops (Media3's `maxBufferMs`, 50 s); loading restarts as
    /// soon as playback consumes any of it.
    public var forwardTarget: Double
    /// Seconds of data kept behind the playhead; older data is evicted (Media3's `backBufferDurationMs`,
    /// 0). `.infinity` keeps everything.
    public var backBuffer: Double
    /// How `isPlaybackLikelyToKeepUp` is decided.
    public var keepUp: KeepUpRule
    /// Whether the resume threshold grows from stall to stall (`.fixed` by default).
    public var resumeGrowth: ResumeGrowth
    /// Seconds still buffered ahead at which playing turns into a stall (0 by default: when the buffer is
    /// empty). A player that pauses itself on a low buffer sets it: Shaka 3.1 at 0.5 s. Not applied when
    /// the data ahead reaches the end of the media or the stream ended.
    public var stallLevel = 0.0
    /// The player's own stall watchdog, which seeks the playhead on after a while stalled with data
    /// ahead (`nil` by default: the stall lasts until the resume threshold is met). hls.js's: `StallNudge`.
    public var stallNudge: StallNudge?

    /// The forward target a constrained ("Low Data Mode", data saver) network uses by default, 15 s: enough
    /// to ride out a few seconds of bad network without downloading what a viewer may never watch.
    public static let constrainedForwardTarget = 15.0

    /// Creates a policy; every parameter defaults to Media3's `DefaultLoadControl` value.
    public init(
        startThreshold: Double = 1, resumeThreshold: Double = 2, forwardTarget: Double = 50,
        backBuffer: Double = 0, keepUp: KeepUpRule = .threshold, resumeGrowth: ResumeGrowth = .fixed
    ) {
        self.startThreshold = startThreshold
        self.resumeThreshold = resumeThreshold
        self.forwardTarget = forwardTarget
        self.backBuffer = backBuffer
        self.keepUp = keepUp
        self.resumeGrowth = resumeGrowth
    }

    /// The cap of a doubling resume threshold; `nil` when it is fixed.
    public var resumeCap: Double? {
        if case .doubling(let cap) = resumeGrowth { return cap }
        return nil
    }

    /// The seconds buffered ahead needed to resume after stall number `stall` since the last seek (1 for
    /// the first): `resumeThreshold` with `.fixed`; with `.doubling(cap:)`,
    /// `min(resumeThreshold * 2^(stall-1), max(cap, resumeThreshold))`.
    public func resumeThreshold(afterStall stall: Int) -> Double {
        guard case .doubling(let cap) = resumeGrowth, resumeThreshold > 0 else { return resumeThreshold }
        let ceiling = Swift.max(cap, resumeThreshold)
        var threshold = resumeThreshold
        // Doubling until the ceiling takes at most ~1,100 steps for any finite values, whatever `stall` is.
        for _ in 1..<Swift.max(stall, 1) {
            threshold *= 2
            if threshold >= ceiling { return ceiling }
        }
        return threshold
    }

    /// The default policy: 1 s to start, 2 s to resume, 50 s forward, no back buffer, threshold keep-up.
    public static let `default` = BufferPolicy()

    /// The default policy for a constrained network: the forward target lowered to
    /// `constrainedForwardTarget`.
    public static let constrained = BufferPolicy.default.constrained()

    /// This policy for a constrained ("Low Data Mode") network: the forward target lowered to
    /// `forwardTarget` (but never below the resume threshold, and never raised).
    public func constrained(forwardTarget target: Double = BufferPolicy.constrainedForwardTarget) -> BufferPolicy {
        var policy = self
        policy.forwardTarget = Swift.min(forwardTarget, Swift.max(target, resumeThreshold))
        return policy
    }

    /// Throws the first rule this policy breaks: every value finite and not negative (the back buffer may
    /// be infinite; the stall level too), resume at least start, forward target at least resume, a positive prediction horizon,
    /// and a doubling resume threshold's cap finite, and at least the resume threshold; a stall nudge's
    /// values finite and not negative.
    public func validate() throws(BufferPolicyError) {
        let values: [(BufferPolicyError.Setting, Double)] = [
            (.startThreshold, startThreshold), (.resumeThreshold, resumeThreshold),
            (.forwardTarget, forwardTarget), (.backBuffer, backBuffer), (.stallLevel, stallLevel),
        ]
        for (setting, value) in values {
            if value.isNaN || value < 0 { throw .negative(setting, value) }
            if value.isInfinite, setting != .backBuffer { throw .notFinite(setting) }
        }
        if let nudge = stallNudge {
            for value in [nudge.period, nudge.minimumAhead, nudge.offset, Double(nudge.maxNudges ?? 0)] {
                if value.isNaN || value < 0 { throw .negative(.stallNudge, value) }
                if value.isInfinite { throw .notFinite(.stallNudge) }
            }
        }
        if resumeThreshold < startThreshold {
            throw .resumeBelowStart(resume: resumeThreshold, start: startThreshold)
        }
        if forwardTarget < resumeThreshold {
            throw .targetBelowResume(target: forwardTarget, resume: resumeThreshold)
        }
        if case .predictive(let horizon?) = keepUp, !(horizon > 0 && horizon.isFinite) {
            throw .invalidHorizon(horizon)
        }
        if case .doubling(let cap) = resumeGrowth {
            if cap.isNaN || cap < resumeThreshold { throw .capBelowResume(cap: cap, resume: resumeThreshold) }
            if cap.isInfinite { throw .notFinite(.resumeCap) }
        }
    }

    /// This policy with each value given replacing its own (a preset's, or the default, under options a
    /// user typed): a resume threshold given is the threshold, so it replaces a doubling one.
    public func overriding(
        startThreshold: Double? = nil, resumeThreshold: Double? = nil, forwardTarget: Double? = nil,
        backBuffer: Double? = nil
    ) -> BufferPolicy {
        var policy = self
        if let startThreshold { policy.startThreshold = startThreshold }
        if let resumeThreshold {
            policy.resumeThreshold = resumeThreshold
            policy.resumeGrowth = .fixed
        }
        if let forwardTarget { policy.forwardTarget = forwardTarget }
        if let backBuffer { policy.backBuffer = backBuffer }
        return policy
    }
}
