/// The buffering policy of a real player, as its source or documentation states it, mapped onto
/// `BufferPolicy` (whose thresholds count media loaded contiguously ahead of the playhead).
///
/// Each case's `policy` is built from the player's published defaults; where a player measures
/// something else (mpv counts only its demuxer queue, Chromium its decoded audio queue) or publishes no
/// number (AVPlayer), `source` says so. The "Player presets" table of `docs/model.md` cites each value.
public enum PlayerPreset: String, Sendable, Hashable, CaseIterable {
    /// mpv 0.35+ with its defaults: `--cache-pause-initial=no`, `--cache-pause-wait=1`,
    /// `--cache-secs` 1000 h (so `--demuxer-max-bytes`, 150 MiB, is the real bound).
    case mpv
    /// Chromium's `<video src>` (progressive): starts once its audio renderer holds 200 ms decoded,
    /// doubles that after every underflow up to 3 s (`AudioRendererAlgorithm`), buffers ~10 s ahead
    /// (`MultiBufferDataSource`).
    case chromium
    /// Media3 ExoPlayer's `DefaultLoadControl`: 1 s to start, 2 s after a rebuffer, 50 s ahead, no back
    /// buffer. The same values as `BufferPolicy.default`.
    case media3
    /// hls.js on Chromium: hls.js keeps `maxBufferLength` 30 s ahead and everything behind
    /// (`backBufferLength` Infinity) and has no start or resume threshold of its own, so the browser's
    /// rule decides: under MSE Chromium starts once a segment is appended and doubles its resume threshold
    /// per stall up to 3 s, as for a progressive file (measured by `Benchmarks/webplayers.sh`); hls.js's stall watchdog seeks
    /// the playhead on after 2 s stalled with data ahead (`StallNudge.hlsjs`). On `simulate` its own ABR
    /// (`HlsjsAbr`) runs too.
    case hlsjs
    /// Shaka Player 3.1 on Chromium: holds the playback rate at 0 until `rebufferingGoal` 2 s (or the
    /// MPD's `minBufferTime`, when larger) is buffered, at start and after a stall; `bufferingGoal` 10 s
    /// ahead, `bufferBehind` 30 s. On `simulate` its ABR too (`ShakaAbr`).
    case shaka
    /// dash.js 5.1.1 on Chromium (MSE): no start threshold of its own, so playback starts and resumes as
    /// soon as the media element has data at the playhead; `bufferTimeDefault` 18 s ahead, `bufferToKeep`
    /// 20 s behind. On `simulate` its ABR too (`DashjsAbr`).
    case dashjs
    /// AVPlayer with `automaticallyWaitsToMinimizeStalling` (the default): starts and resumes when it
    /// predicts playback will keep up. Apple publishes no threshold or forward-buffer figure
    /// (`preferredForwardBufferDuration` 0 means "the player chooses"), so bufprobe uses its predictive
    /// keep-up rule and keeps its own 50 s forward target.
    case avplayer

    /// The name on the command line; `exoplayer` is also accepted for `media3`.
    public init?(name: String) {
        switch name.lowercased() {
        case "exoplayer", "media3", "media3-exoplayer": self = .media3
        case "hls.js", "hlsjs": self = .hlsjs
        case "dash.js", "dashjs": self = .dashjs
        case "shaka", "shaka-player": self = .shaka
        case "chrome", "chromium": self = .chromium
        default:
            guard let preset = PlayerPreset(rawValue: name.lowercased()) else { return nil }
            self = preset
        }
    }

    /// The decoded-audio queue Chromium starts with (`kStartingCapacity`, 200 ms).
    public static let chromiumStartingCapacity = 0.2
    /// Chromium's largest decoded-audio queue (`kMaxCapacity`, 3 s): the doubling stops there.
    public static let chromiumMaxCapacity = 3.0
    /// Chromium's progressive read-ahead (`kTargetSecondsBufferedAhead`, 10 s, clamped in bytes).
    public static let chromiumForward = 10.0
    /// How long Chromium plays on with audio after the video runs out, before it declares the underflow
    /// (`RendererImpl`'s `video_underflow_threshold_`, 3 s: `kDefaultVideoUnderflowThresholdMs` in older
    /// `media/renderers/renderer_impl.cc`, the `MediaVideoUnderflowThreshold` tuneable's default since).
    public static let chromiumVideoUnderflowThreshold = 3.0
    /// Shaka's `rebufferingGoal` (lib/util/player_configuration.js 117), seconds.
    public static let shakaRebufferingGoal = 2.0
    /// Where Shaka 3.1 starts buffering (rate 0) while playing: min(`TYPICAL_BUFFERING_THRESHOLD_` 0.5 s,
    /// half the rebuffering goal) ahead (`updateBufferingSettings_`, `lib/player.js` 2543-2555, 5940),
    /// polled every 250 ms (2534; bufprobe stalls at the level itself).
    public static func shakaStallLevel(goal: Double) -> Double { min(0.5, goal / 2) }
    /// mpv's `--cache-pause-wait` default, seconds of demuxer queue.
    public static let mpvCachePauseWait = 1.0
    /// What mpv holds past its demuxer queue when it resumes (decoder and output queues), measured: with
    /// `--cache-pause-wait 2` it resumed with 2.2-2.5 s loaded ahead of the playhead (a run not kept; docs/model.md), 0.3 s is
    /// the middle of that range less its rounding.
    public static let mpvDecoderQueue = 0.3
    /// mpv's `--cache-secs` default (1000 hours); `--demuxer-max-bytes` (150 MiB) bounds it in practice.
    public static let mpvCacheSecs = 3_600_000.0

    /// The player's policy in bufprobe's terms (thresholds on media loaded ahead of the playhead).
    public var policy: BufferPolicy {
        let chromiumGrowth = BufferPolicy.ResumeGrowth.doubling(cap: Self.chromiumMaxCapacity)
        // Chromium doubles its queue at the underflow, so the first resume already needs twice the start.
        let chromiumResume = 2 * Self.chromiumStartingCapacity
        switch self {
        case .mpv:
            // mpv starts as soon as it has decoded a frame (`--cache-pause-initial=no`): no threshold.
            return BufferPolicy(
                startThreshold: 0, resumeThreshold: Self.mpvCachePauseWait + Self.mpvDecoderQueue,
                forwardTarget: Self.mpvCacheSecs, backBuffer: .infinity)
        case .chromium:
            return BufferPolicy(
                startThreshold: Self.chromiumStartingCapacity, resumeThreshold: chromiumResume,
                forwardTarget: Self.chromiumForward, backBuffer: 2, resumeGrowth: chromiumGrowth)
        case .media3:
            return BufferPolicy(startThreshold: 1, resumeThreshold: 2, forwardTarget: 50, backBuffer: 0)
        case .hlsjs:
            // Chromium's doubling decoded-audio queue under MSE too (measured by `Benchmarks/webplayers.sh`: with 2 s segments the
            // first three stalls since a seek ended as the next segment was appended, the fourth, needing 3 s,
            // did not), and hls.js's watchdog seeks the playhead on after 2 s stalled with data ahead (a seek:
            // the doubling starts over).
            var policy = BufferPolicy(
                startThreshold: Self.chromiumStartingCapacity, resumeThreshold: chromiumResume,
                forwardTarget: 30, backBuffer: .infinity, resumeGrowth: chromiumGrowth)
            policy.stallNudge = .hlsjs
            return policy
        case .shaka:
            var policy = BufferPolicy(
                startThreshold: Self.shakaRebufferingGoal, resumeThreshold: Self.shakaRebufferingGoal,
                forwardTarget: 10, backBuffer: 30)
            policy.stallLevel = Self.shakaStallLevel(goal: Self.shakaRebufferingGoal)
            return policy
        case .dashjs:
            // Under MSE Chromium started at the first segment appended and resumed as soon as the next one
            // was (`Benchmarks/webplayers.sh`: 2.1-2.4 s stalls, every time): its starting capacity, never doubled.
            return BufferPolicy(
                startThreshold: Self.chromiumStartingCapacity, resumeThreshold: Self.chromiumStartingCapacity,
                forwardTarget: 18, backBuffer: 20)
        case .avplayer:
            return BufferPolicy(keepUp: .predictive(horizon: nil))
        }
    }

    /// The video-underflow grace of the browser's renderer with separate audio and video tracks (MSE
    /// source buffers): `chromiumVideoUnderflowThreshold` for the players that leave stalls to Chromium
    /// (dash.js, hls.js); `nil` for Shaka (it sets the rate to 0 itself while the media element's `buffered`
    /// is short, so the renderer never runs out), for `chromium` (one muxed progressive file: `simulate`
    /// fetches no separate track) and for the players that are not Chromium.
    public var videoUnderflowGrace: Double? {
        switch self {
        case .dashjs, .hlsjs: Self.chromiumVideoUnderflowThreshold
        case .mpv, .chromium, .media3, .shaka, .avplayer: nil
        }
    }

    /// How far past the video's buffer level the player loads a separate audio track: dash.js 5.1.1's
    /// audio buffer target with a video track, max(video level + 1 s, the audio segment's duration)
    /// (`_getBufferTargetForAudio`, `src/streaming/controllers/ScheduleController.js` 304-320, used by
    /// `_shouldBuffer` 233-247). `nil` for the others (up to the forward target).
    public var audioLeadOverVideo: Double? { self == .dashjs ? 1 : nil }

    /// How many segment durations a separate audio track may run ahead of the video's appended data:
    /// Shaka 3.1's `MAX_RUN_AHEAD_SEGMENTS_` 1 (`lib/media/streaming_engine.js` 2061) x the presentation's
    /// `maxSegmentDuration`, its stream waiting and looking again 1 s later (`update_`, 1020-1043).
    /// `nil` for the others.
    public var audioRunAheadSegments: Double? { self == .shaka ? 1 : nil }

    /// Where the values come from, in one line (the "Player presets" table of `docs/model.md` cites each
    /// value at its source; `--help` gives the values only).
    public var source: String {
        switch self {
        case .mpv:
            "mpv DOCS/man/options.rst (--cache-pause-initial=no, --cache-pause-wait=1 counting the demuxer queue only, --cache-secs); player/playloop.c; +0.3 s decoder queue measured"
        case .chromium:
            "Chromium media/filters/audio_renderer_algorithm.cc (kStartingCapacity 200 ms, doubled per underflow to kMaxCapacity 3 s); multibuffer_data_source.cc (10 s ahead)"
        case .media3:
            "Media3 DefaultLoadControl (bufferForPlaybackMs 1000, bufferForPlaybackAfterRebufferMs 2000, maxBufferMs 50000, backBufferDurationMs 0)"
        case .hlsjs:
            "hls.js src/config.ts (maxBufferLength 30, backBufferLength Infinity; highBufferWatchdogPeriod 2, nudgeOffset 0.1: src/controller/gap-controller.ts); no start threshold of its own: Chromium's under MSE (measured: starts once a segment is appended, resume threshold doubled per stall to 3 s); ABR: src/controller/abr-controller.ts"
        case .shaka:
            "Shaka 3.1 lib/util/player_configuration.js 117-119 (rebufferingGoal 2, bufferingGoal 10, bufferBehind 30); lib/player.js 1847-1849 (max with the MPD's minBufferTime), 2543-2555 (stalls at 0.5 s ahead)"
        case .dashjs:
            "dash.js 5.1.1 src/core/Settings.js 1202, 1206 (bufferToKeep 20, bufferTimeDefault 18); no start threshold: the media element starts on data (MSE, measured)"
        case .avplayer:
            "Apple AVPlayer automaticallyWaitsToMinimizeStalling, isPlaybackLikelyToKeepUp; no published threshold: predictive keep-up, bufprobe's 50 s target"
        }
    }
}

extension PlayerPreset {
    /// The player and its version in words, as reports name it: `Shaka Player 3.1`.
    public var playerName: String {
        switch self {
        case .mpv: "mpv 0.35"
        case .chromium: "Chromium's <video>"
        case .media3: "Media3 ExoPlayer"
        case .hlsjs: "hls.js of September 2023"
        case .shaka: "Shaka Player 3.1"
        case .dashjs: "dash.js 5.1.1"
        case .avplayer: "AVPlayer"
        }
    }

    /// How closely the preset follows the real player, as measured: docs/model.md's table against mpv
    /// (`check --player mpv`), Benchmarks/README.md's latest `webplayers.sh` run for the web players
    /// (`simulate --player`, 2026-11-28 at 943ec17), or that it was not measured.
    public var measuredAgreement: String {
        switch self {
        case .mpv: "same stall count as mpv 0.35.1 at 4 of 6 rates"
        case .hlsjs: "simulate agreed in 11 of 12 cases"
        case .dashjs: "simulate agreed in 9 of 12 cases"
        case .shaka: "simulate agreed in 11 of 12 cases"
        case .chromium: "not measured against Chromium"
        case .media3: "not measured against ExoPlayer"
        case .avplayer: "not measured against AVPlayer"
        }
    }

    /// `--player`'s help discussion: one line per preset (the player and version, the measured agreement),
    /// then where the values, the players' own ABR (simulate) and the measurements are.
    public static var helpDiscussion: String {
        allCases.map { "\($0.rawValue): \($0.playerName); \($0.measuredAgreement)." }.joined(separator: "\n")
            + "\nValues and each player's own ABR: docs/model.md (Player presets); the agreement:"
            + " Benchmarks/README.md (webplayers.sh, run of 2026-11-28)."
    }
}
