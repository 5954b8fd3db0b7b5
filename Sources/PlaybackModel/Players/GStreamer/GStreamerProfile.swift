/// GStreamer 1.22's `playbin3` playing HLS through `hlsdemux2` (adaptivedemux2), with the application
/// pausing on its BUFFERING messages as `gst-play-1.0` does: playback starts and resumes when the demuxer
/// holds its low watermark, 1.5 segment durations (3 s for 2 s segments), and pauses when its queue is
/// empty; downloads stop at 30 s ahead. On `simulate` its ABR too (`GStreamerAbr`). Paths are under the
/// monorepo's `subprojects/` at tag `1.22.0` (docs/players/gstreamer-vlc-sources.md).
///
/// The percent the demuxer posts is its tracks' parsed, not yet pushed media over the low watermark
/// (`gst-plugins-good/ext/adaptivedemux2/gstadaptivedemux.c:1720-1789`); the application pauses below
/// 100 % and plays at 100 % (`gst-plugins-base/tools/gst-play.c:396-421`), and the demuxer re-enters
/// buffering only below 1 % (`gstadaptivedemux.c:1795-1808`). bufprobe counts whole segments loaded
/// ahead of the playhead: the few hundred ms queued below the demuxer (its multiqueue and sinks) and the
/// part of a segment the demuxer has parsed while it arrives are not modelled; in the measured runs they
/// roughly cancel (a pause began between 0.5 s before and 0.6 s after the playhead reached the end of the
/// last whole segment, Benchmarks/out's c200k run).
public struct GStreamerProfile: PlayerProfile {
    /// The low watermark without a subclass recommendation, seconds (`gstadaptivedemux-stream.c:153-176`).
    public static let defaultLowWatermark = 10.0
    /// HLS's recommended low watermark in segment durations (`hls/m3u8.c:1543-1553`).
    public static let segmentsBuffered = 1.5
    /// `high-watermark-time` and `max-buffering-time`, seconds (`gstadaptivedemux.c:122-127`): downloads
    /// pause while the demuxer holds this much.
    public static let highWatermark = 30.0
    /// The segment duration the policy assumes, seconds: bufprobe's manifest hints carry no segment
    /// duration, so the watermark is the one of 2 s segments (the benchmark's ladders).
    public static let assumedSegmentDuration = 2.0

    /// The demuxer's low watermark, the level at which it posts 100 %: 1.5 x the media playlist's average
    /// segment duration, capped at `defaultLowWatermark` (`gstadaptivedemux-stream.c:797-817`,
    /// `hls/m3u8.c:1543-1553`). 3 s for 2 s segments.
    public static func lowWatermark(averageSegmentDuration: Double) -> Double {
        min(defaultLowWatermark, segmentsBuffered * averageSegmentDuration)
    }

    /// The profile.
    public init() {}

    /// `gstreamer`.
    public var name: String { "gstreamer" }
    /// `GStreamer 1.22 playbin3`.
    public var playerName: String { "GStreamer 1.22 playbin3" }
    /// `RESIM=1 PLAYERS=gstreamer Benchmarks/webplayers.sh` over the runs of 2026-12-07 recorded for
    /// docs/players/gstreamer-vlc-sources.md (the first ladder; c200k: one stall more).
    public var measuredAgreement: String { "simulate agreed in 11 of 12 cases" }
    /// adaptivedemux2 and gst-play at GStreamer 1.22.0.
    public var source: String {
        "GStreamer 1.22.0 gst-plugins-good/ext/adaptivedemux2: hls/m3u8.c:1543-1553 (low watermark 1.5 segments), gstadaptivedemux.c:117 (bandwidth-target-ratio 0.8), :122-127 (30 s high watermark), :1720-1808 (percent, <1 % re-buffers), gstadaptivedemux-stream.c:1277-1309, 2494-2530 (sample per fragment, min(mean of 3, last)), hls/m3u8.c:2077-2082, 2266-2296 (first listed; highest BANDWIDTH <= target); gst-plugins-base/tools/gst-play.c:396-421 (pause below 100 %)"
    }

    /// Start and resume at the low watermark of `assumedSegmentDuration` segments (3 s), pause on an
    /// empty buffer, 30 s ahead, nothing behind (a pipeline keeps no played media).
    public var policy: BufferPolicy {
        let watermark = Self.lowWatermark(averageSegmentDuration: Self.assumedSegmentDuration)
        return BufferPolicy(
            startThreshold: watermark, resumeThreshold: watermark, forwardTarget: Self.highWatermark, backBuffer: 0)
    }

    /// `GStreamerAbr`.
    public var abr: PlayerAbr? { PlayerAbr(GStreamerAbr()) }

    /// hlsdemux2 fetches the master playlist, then the first-listed variant's media playlist, over the
    /// same link before its first fragment (`hls/gsthlsdemux.c:920-931`); 0 without their sizes.
    public func startDelay(hints: PlayerPreset.ManifestHints?, network: NetworkModel) -> Double {
        guard let master = hints?.masterPlaylistBytes, master > 0 else { return 0 }
        var time = network.finishTime(bytes: master, start: network.requestLatency(at: 0))
        if let media = hints?.mediaPlaylistBytes.first, media > 0, time.isFinite {
            time = network.finishTime(bytes: media, start: time + network.requestLatency(at: time))
        }
        return time.isFinite ? time : 0
    }
}
