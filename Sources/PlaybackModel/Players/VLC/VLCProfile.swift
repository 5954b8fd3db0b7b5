/// VLC 3.0 (Debian's 3.0.24) playing HLS or DASH through its `adaptive` module: the lowest variant for
/// the first segment, the highest for every later one (`VLCAbr`); es_out's clock starts and resumes on
/// its `pts_delay` of media, which grows at every stall (`VLCStartRule`); the adaptive module loads up to
/// 30 s ahead.
///
/// From the source (upstream 3.0.x 426513d88e3e, read as docs/players/gstreamer-vlc-sources.md says):
/// the ABR, `pts_delay` 1 s, the 30 s maximum buffering, the raise of `pts_delay` at each stall. From the
/// measurement (12 runs of the first ladder, 2 s segments): the raise's size, 0.3 s per stall, the
/// constant that agrees best on those runs. Not modelled: the pictures VLC shows while its clock
/// rebuffers, and a raise that depends on the link (docs/model.md, "VLC 3.0").
public struct VLCProfile: PlayerProfile {
    /// es_out's `pts_delay` as the adaptive demuxer reports it (`adaptive/PlaylistManager.cpp` 649-650,
    /// read at `src/input/input.c` 2852), seconds: the media es_out holds before its clock starts.
    public static let ptsDelay = 1.0
    /// `adaptive-maxbuffer` (`adaptive/adaptive.cpp` 132-146), seconds.
    public static let maxBuffering = 30.0
    /// `pts_delay`'s raise per stall, seconds: fitted on the 12 measured runs (c1500k's eight raises
    /// average 0.03 s, c1000k's 0.2 s, c700k's and c400k's first ones 1-3 s).
    public static let ptsDelayGrowth = 0.3
    /// The most the raises add, seconds (`clock-jitter`, `src/libvlc-module.c` 1914).
    public static let clockJitter = 5.0

    /// The profile.
    public init() {}

    /// `vlc`.
    public var name: String { "vlc" }
    /// `VLC 3.0`.
    public var playerName: String { "VLC 3.0" }
    /// Benchmarks/README.md's `webplayers.sh` first ladder, the runs of 2026-12-07 compared again.
    public var measuredAgreement: String { "simulate agreed in 6 of 12 cases" }
    /// VLC's adaptive module and es_out, and the measurement.
    public var source: String {
        "VLC 3.0.x 426513d88e3e modules/demux/adaptive/logic/NearOptimalAdaptationLogic.cpp:121-173 (lowest, then highest), adaptive.cpp:132-146 (maxbuffer 30 s), PlaylistManager.cpp:649-650 (pts_delay 1 s), src/input/es_out.c:2535-2572 (pts_delay raised at a stall, +0.3 s fitted on 3.0.24)"
    }
    /// Start and resume on `pts_delay` (1 s) ahead, the resume growing per stall (`VLCStartRule`), 30 s
    /// ahead, nothing kept behind.
    public var policy: BufferPolicy {
        BufferPolicy(
            startThreshold: Self.ptsDelay, resumeThreshold: Self.ptsDelay, forwardTarget: Self.maxBuffering,
            backBuffer: 0,
            keepUp: .player(PlayerStart(VLCStartRule(growth: Self.ptsDelayGrowth, maximum: Self.clockJitter))))
    }

    /// `VLCAbr`.
    public var abr: PlayerAbr? { PlayerAbr(VLCAbr()) }
}
