/// Bounds on what a remote peer can make bufprobe do for one input (documented in
/// `docs/limits-and-safety.md`).
public enum ResourceLimits {
    /// The most bytes read as one playlist (HLS or DASH, by FFmpeg or by bufprobe): 16 MiB. The largest
    /// real playlists (a day of 1 s segments) are a few MiB; a body that never ends is refused here.
    public static let playlistBytes: Int64 = 16 << 20
    /// The most segments kept of a live HLS media playlist (`HLSPlaylistWindow`): its last 5,000 (2 h 46 min
    /// of 2 s segments, 8 h 20 min of 6 s ones). FFmpeg and bufprobe's own health check read this window in
    /// place of a longer live playlist, so a playlist that grows at every reload costs no more than it.
    public static let liveSegments = 5_000
    /// Requests per second to one origin (scheme, host and port) once the burst is spent.
    public static let requestsPerSecond = 10.0
    /// Requests to one origin that may go out at once before `requestsPerSecond` applies (a master with
    /// its variants and first segments).
    public static let requestBurst = 20.0
    /// The same playlist URL requested this many times within one second is a loop: a live playlist is
    /// reloaded at most every half target duration (at least 0.5 s).
    public static let loopRequests = 4
    /// The longest duration a playlist may declare (`#EXTINF`, `#EXT-X-TARGETDURATION`): 7 days, the
    /// command line's `Seconds.maximum` (PlaybackModel), so that no sum of playlist durations overflows
    /// to infinity. A test keeps the two equal.
    public static let longestDuration = 7 * 86_400.0
}
