/// A segment download in flight as a `PlayerAbrModel`'s abandonment rule judges it.
public struct PlayerAbrProgress: Sendable, Hashable {
    /// The ladder, as `choose` sees it (`buffer` now, `segment` the one in flight).
    public var context: PlayerAbrContext
    /// The variant (ascending index) it is fetched at.
    public var variant: Int
    /// Bytes arrived so far, and the request's whole size.
    public var arrivedBytes: Double, totalBytes: Double
    /// Seconds from the request to its first byte.
    public var latency: Double
    /// Seconds since its first byte.
    public var elapsed: Double
    /// Whether the viewer has playback on (not paused): a player may only judge a download then.
    public var playing: Bool

    /// Creates a progress report.
    public init(
        context: PlayerAbrContext, variant: Int, arrivedBytes: Double, totalBytes: Double, latency: Double,
        elapsed: Double, playing: Bool = true
    ) {
        self.context = context
        self.variant = variant
        self.arrivedBytes = arrivedBytes
        self.totalBytes = totalBytes
        self.latency = latency
        self.elapsed = elapsed
        self.playing = playing
    }
}
