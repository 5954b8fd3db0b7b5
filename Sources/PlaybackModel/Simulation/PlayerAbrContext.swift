/// What a `PlayerAbrModel` sees when it picks the variant of a segment request.
public struct PlayerAbrContext: Sendable, Hashable {
    /// The ladder's declared bit rates (`BANDWIDTH`), ascending, bits per second.
    public var bitRates: [Double]
    /// The ascending index of the variant the manifest lists first.
    public var firstListed: Int
    /// The duration of the segment about to be requested, seconds.
    public var segmentDuration: Double
    /// Seconds of media loaded ahead of the playhead now.
    public var buffer: Double
    /// The segment about to be requested, and how many there are.
    public var segment: Int, segmentCount: Int
    /// Session seconds now (from play), for a player's timers (Shaka's switch interval, dash.js's hold
    /// after an abandonment).
    public var time: Double

    /// Creates a context.
    public init(
        bitRates: [Double], firstListed: Int = 0, segmentDuration: Double, buffer: Double, segment: Int = 0,
        segmentCount: Int = 0, time: Double = 0
    ) {
        self.time = time
        self.bitRates = bitRates
        self.firstListed = firstListed
        self.segmentDuration = segmentDuration
        self.buffer = buffer
        self.segment = segment
        self.segmentCount = segmentCount
    }
}
