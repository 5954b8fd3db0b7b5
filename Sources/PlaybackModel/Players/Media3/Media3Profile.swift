/// Media3 ExoPlayer's `DefaultLoadControl`: 1 s to start, 2 s after a rebuffer, 50 s ahead, no back buffer.
/// The same values as `BufferPolicy.default`.
public struct Media3Profile: PlayerProfile {
    /// The profile.
    public init() {}

    /// `media3`.
    public var name: String { "media3" }
    /// `exoplayer`, `media3-exoplayer`.
    public var aliases: [String] { ["exoplayer", "media3-exoplayer"] }
    /// `Media3 ExoPlayer`.
    public var playerName: String { "Media3 ExoPlayer" }
    /// Not measured.
    public var measuredAgreement: String { "not measured against ExoPlayer" }
    /// `DefaultLoadControl`'s constants.
    public var source: String {
        "Media3 DefaultLoadControl (bufferForPlaybackMs 1000, bufferForPlaybackAfterRebufferMs 2000, maxBufferMs 50000, backBufferDurationMs 0)"
    }

    /// 1 s, 2 s, 50 s, nothing behind.
    public var policy: BufferPolicy {
        BufferPolicy(startThreshold: 1, resumeThreshold: 2, forwardTarget: 50, backBuffer: 0)
    }
}
