/// mpv 0.35+ with its defaults: `--cache-pause-initial=no`, `--cache-pause-wait=1`, `--cache-secs` 1000 h
/// (so `--demuxer-max-bytes`, 150 MiB, is the real bound). mpv counts only its demuxer queue; bufprobe
/// counts all the media loaded ahead, so the resume threshold adds the decoder queue measured.
public struct MpvProfile: PlayerProfile {
    /// mpv's `--cache-pause-wait` default, seconds of demuxer queue.
    public static let cachePauseWait = 1.0
    /// What mpv holds past its demuxer queue when it resumes (decoder and output queues), measured: with
    /// `--cache-pause-wait 2` it resumed with 2.2-2.5 s loaded ahead of the playhead (a run not kept;
    /// docs/model.md), 0.3 s is the middle of that range less its rounding.
    public static let decoderQueue = 0.3
    /// mpv's `--cache-secs` default (1000 hours); `--demuxer-max-bytes` (150 MiB) bounds it in practice.
    public static let cacheSecs = 3_600_000.0

    /// The profile.
    public init() {}

    /// `mpv`.
    public var name: String { "mpv" }
    /// `mpv 0.35`.
    public var playerName: String { "mpv 0.35" }
    /// docs/model.md's table against mpv (`check --player mpv`).
    public var measuredAgreement: String { "same stall count as mpv 0.35.1 at 4 of 6 rates" }
    /// mpv's manual and play loop.
    public var source: String {
        "mpv DOCS/man/options.rst (--cache-pause-initial=no, --cache-pause-wait=1 counting the demuxer queue only, --cache-secs); player/playloop.c; +0.3 s decoder queue measured"
    }

    /// No start threshold (mpv starts as soon as it has decoded a frame, `--cache-pause-initial=no`),
    /// 1.3 s to resume, its cache ahead, everything behind.
    public var policy: BufferPolicy {
        BufferPolicy(
            startThreshold: 0, resumeThreshold: Self.cachePauseWait + Self.decoderQueue,
            forwardTarget: Self.cacheSecs, backBuffer: .infinity)
    }
}
