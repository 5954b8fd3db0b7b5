/// VLC 3.0's start and resume on the adaptive module, as es_out's clock decides them.
///
/// - Start: es_out holds the clock until it has `pts_delay` of media (`src/input/es_out.c` 642-685), 1 s
///   from the adaptive demuxer (`adaptive/PlaylistManager.cpp` 649-650): the policy's start threshold.
///   On an HLS ladder bufprobe adds a segment's media when it has arrived whole, so the clock starts on
///   the first whole segment, as measured on 3.0.24 (the adaptive module's own 6 s minimum,
///   `logic/BufferingLogic.cpp` 40-43, did not hold there).
/// - Resume: at a stall es_out raises `pts_delay` by how late the clock's reference came and rebuffers to
///   it (`src/input/es_out.c` 2535-2572): the policy's resume threshold plus `growth` per stall before
///   this one, at most `maximum` (`clock-jitter`, 5 s, `src/libvlc-module.c` 1914). How late the
///   reference comes depends on how the demuxer hands data to es_out and on the link, which this rule
///   does not see: `growth` is a constant fitted on the measured runs.
public struct VLCStartRule: PlayerStartRule {
    /// Seconds `pts_delay` grows per stall.
    public var growth: Double
    /// The most the growth adds to the resume threshold, seconds.
    public var maximum: Double

    /// A rule with `growth` seconds per stall, up to `maximum`.
    public init(growth: Double, maximum: Double) {
        self.growth = growth
        self.maximum = maximum
    }

    /// `vlc`.
    public var name: String { "vlc" }

    /// `pts_delay_growth` and `pts_delay_max`.
    public var parameters: [String: Double] { ["pts_delay_growth": growth, "pts_delay_max": maximum] }

    /// The start threshold at start; while rebuffering after stall n, the resume threshold + growth x
    /// (n - 1), the growth capped at `maximum`.
    public func isLikelyToKeepUp(_ item: PlaybackItem, bufferedAhead: Double) -> Bool {
        guard item.isRebuffering else { return bufferedAhead >= item.policy.startThreshold }
        return bufferedAhead >= resumeThreshold(item.policy, afterStall: item.stallsSinceSeek)
    }

    /// The seconds ahead needed to resume after stall `stall` (1 for the first) under `policy`.
    public func resumeThreshold(_ policy: BufferPolicy, afterStall stall: Int) -> Double {
        policy.resumeThreshold + min(growth * Double(max(stall - 1, 0)), maximum)
    }
}
