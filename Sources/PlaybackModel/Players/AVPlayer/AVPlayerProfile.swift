/// AVPlayer with `automaticallyWaitsToMinimizeStalling` (the default): starts and resumes when it predicts
/// playback will keep up. Apple publishes no threshold or forward-buffer figure
/// (`preferredForwardBufferDuration` 0 means "the player chooses"), so bufprobe uses its predictive
/// keep-up rule and keeps its own 50 s forward target.
public struct AVPlayerProfile: PlayerProfile {
    /// The profile.
    public init() {}

    /// `avplayer`.
    public var name: String { "avplayer" }
    /// `AVPlayer`.
    public var playerName: String { "AVPlayer" }
    /// Not measured.
    public var measuredAgreement: String { "not measured against AVPlayer" }
    /// Apple's documentation.
    public var source: String {
        "Apple AVPlayer automaticallyWaitsToMinimizeStalling, isPlaybackLikelyToKeepUp; no published threshold: predictive keep-up, bufprobe's 50 s target"
    }

    /// The default policy with the predictive keep-up rule to the end of the media.
    public var policy: BufferPolicy { BufferPolicy(keepUp: .predictive(horizon: nil)) }
}
