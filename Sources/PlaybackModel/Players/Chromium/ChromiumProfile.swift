/// Chromium's `<video src>` (progressive): starts once its audio renderer holds 200 ms decoded, doubles
/// that after every underflow up to 3 s (`AudioRendererAlgorithm`), buffers ~10 s ahead
/// (`MultiBufferDataSource`), keeps 2 s behind. Its constants are also the start and resume rule of the
/// web players that leave it to the browser under MSE (hls.js, dash.js).
public struct ChromiumProfile: PlayerProfile {
    /// The decoded-audio queue Chromium starts with (`kStartingCapacity`, 200 ms).
    public static let startingCapacity = 0.2
    /// Chromium's largest decoded-audio queue (`kMaxCapacity`, 3 s): the doubling stops there.
    public static let maxCapacity = 3.0
    /// Chromium's progressive read-ahead (`kTargetSecondsBufferedAhead`, 10 s, clamped in bytes).
    public static let forward = 10.0
    /// How long Chromium plays on with audio after the video runs out, before it declares the underflow
    /// (`RendererImpl`'s `video_underflow_threshold_`, 3 s: `kDefaultVideoUnderflowThresholdMs` in older
    /// `media/renderers/renderer_impl.cc`, the `MediaVideoUnderflowThreshold` tuneable's default since).
    public static let videoUnderflowThreshold = 3.0
    /// The resume threshold's growth: doubled at every underflow up to `maxCapacity`.
    public static let resumeGrowth = BufferPolicy.ResumeGrowth.doubling(cap: maxCapacity)
    /// The first resume threshold: Chromium doubles its queue at the underflow, so the first resume
    /// already needs twice the start.
    public static let firstResume = 2 * startingCapacity

    /// The profile.
    public init() {}

    /// `chromium`.
    public var name: String { "chromium" }
    /// `chrome`, `chromium`.
    public var aliases: [String] { ["chrome"] }
    /// `Chromium's <video>`.
    public var playerName: String { "Chromium's <video>" }
    /// Not measured.
    public var measuredAgreement: String { "not measured against Chromium" }
    /// Chromium's source files.
    public var source: String {
        "Chromium media/filters/audio_renderer_algorithm.cc (kStartingCapacity 200 ms, doubled per underflow to kMaxCapacity 3 s); multibuffer_data_source.cc (10 s ahead)"
    }

    /// 0.2 s to start, 0.4 s doubling to 3 s to resume, 10 s ahead, 2 s behind.
    public var policy: BufferPolicy {
        BufferPolicy(
            startThreshold: Self.startingCapacity, resumeThreshold: Self.firstResume,
            forwardTarget: Self.forward, backBuffer: 2, resumeGrowth: Self.resumeGrowth)
    }
    // No video-underflow grace: one muxed progressive file, so `simulate` fetches no separate track.
}
