/// GStreamer 1.22's HLS ABR as `hlsdemux2` (adaptivedemux2, gst-plugins-good) runs it, read at the
/// monorepo's tag `1.22.0` (docs/players/gstreamer-vlc-sources.md). Paths are under `subprojects/`,
/// `ext/` is `gst-plugins-good/ext/adaptivedemux2/`.
///
/// - First variant (`hls/m3u8.c:2077-2082`, `hls/gsthlsdemux.c:920-931`): the master's first-listed
///   variant, whatever its bit rate: with `connection-speed` 0 (the default, `gstadaptivedemux.c:416-420`)
///   there is no default estimate and `start-bitrate` is not read.
/// - Estimator (`gstadaptivedemux-stream.c:1277-1309`): one sample per completed fragment, its bytes x 8
///   over the time from the request to the last byte (the first-byte timing falls back to that at
///   `:1295-1296`); the estimate is the lower of the mean of the last 3 samples
///   (`NUM_LOOKBACK_FRAGMENTS`, `gstadaptivedemux-private.h:38`; `gstadaptivedemux-stream.c:2494-2507`)
///   and the last sample (`:2530`).
/// - Switch (`gstadaptivedemux-stream.c:2309-2324`, `:2561-2566`; `hls/m3u8.c:2266-2296`): after every
///   fragment, the highest variant whose declared `BANDWIDTH` is at most the estimate x
///   `bandwidth-target-ratio` 0.8 (`gstadaptivedemux.c:117`), else the lowest; up or down alike, no
///   hysteresis, no buffer condition.
/// - No abandonment: adaptivedemux2 1.22 lets a download finish.
///
/// Not modelled: the new variant's media playlist fetched before its first fragment
/// (`hls/gsthlsdemux.c:2674-2760`, a few hundred bytes), `min-bitrate`/`max-bitrate` (off by default).
public struct GStreamerAbr: PlayerAbrModel {
    /// `bandwidth-target-ratio` (`gstadaptivedemux.c:117`): the share of the estimate a variant may use.
    public var targetRatio = 0.8
    /// `NUM_LOOKBACK_FRAGMENTS` (`gstadaptivedemux-private.h:38`): the samples the mean runs over.
    public static let lookback = 3

    /// The last `lookback` samples, bits per second, oldest first.
    private(set) var samples: [Double] = []

    /// The model with GStreamer 1.22's defaults.
    public init() {}

    /// `gstreamer`.
    public var name: String { "gstreamer" }

    /// The values reports show.
    public var parameters: [String: Double] {
        ["target_ratio": targetRatio, "lookback_fragments": Double(Self.lookback)]
    }

    /// min(mean of the last 3 samples, the last sample), bits per second; `nil` before any sample.
    public var estimate: Double? {
        guard let last = samples.last else { return nil }
        return min(samples.reduce(0, +) / Double(samples.count), last)
    }

    /// The highest of `bitRates` (ascending) at most `estimate` x `targetRatio`, else the lowest (0).
    func variant(for estimate: Double, in bitRates: [Double]) -> Int {
        let target = estimate * targetRatio
        return bitRates.lastIndex(where: { $0 <= target }) ?? 0
    }

    public mutating func choose(_ context: PlayerAbrContext) -> AbrDecision {
        guard let estimate else {
            let first = context.bitRates.indices.contains(context.firstListed) ? context.firstListed : 0
            return AbrDecision(variant: first, reason: "gstreamer: the first variant listed")
        }
        return AbrDecision(
            variant: variant(for: estimate, in: context.bitRates),
            reason: "gstreamer: \(wholeNumber(estimate / 1000)) kbit/s estimate x \(targetRatio)")
    }

    /// One sample: the fragment's bytes x 8 over the time from its request to its last byte.
    public mutating func recordDownload(_ download: PlayerAbrDownload) {
        let seconds = download.latency + download.transfer
        guard seconds > 0, download.bytes > 0 else { return }
        samples.append(8 * Double(download.bytes) / seconds)
        if samples.count > Self.lookback { samples.removeFirst(samples.count - Self.lookback) }
    }

    public func overriding(safetyFactor: Double?) -> GStreamerAbr {
        var model = self
        if let safetyFactor { model.targetRatio = safetyFactor }
        return model
    }
}
