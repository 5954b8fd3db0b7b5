/// A segment download as a `PlayerAbrModel` measures it: whole, or dropped part-way.
public struct PlayerAbrDownload: Sendable, Hashable {
    /// The variant (ascending index) it was fetched at.
    public var variant: Int
    /// Bytes that arrived (of the segment, or of a dropped request before it was dropped).
    public var bytes: Int64
    /// Seconds from the request to its first byte.
    public var latency: Double
    /// Seconds from its first byte to its last (or to the drop).
    public var transfer: Double
    /// Whether the request was dropped for a lower variant.
    public var abandoned: Bool
    /// Session seconds (from play) when it ended: its last byte, or the drop.
    public var time: Double
    /// The arrival curve's corners, from the first byte to the last: session seconds and the bytes in by
    /// then, the bytes coming at a steady rate between two corners (the rate changes with the link's trace
    /// and with the tracks sharing it). Empty when not recorded (`PlayerAbrModel.needsArrival`): the bytes
    /// then count as spread evenly over `transfer`.
    public var arrival: [ArrivalPoint] = []

    /// A corner of the arrival curve.
    public struct ArrivalPoint: Sendable, Hashable {
        /// Session seconds.
        public var time: Double
        /// Bytes of the download in by then.
        public var bytes: Double

        /// A corner at `time` with `bytes` in.
        public init(time: Double, bytes: Double) {
            self.time = time
            self.bytes = bytes
        }
    }

    /// Creates a download.
    public init(
        variant: Int, bytes: Int64, latency: Double, transfer: Double, abandoned: Bool = false, time: Double = 0,
        arrival: [ArrivalPoint] = []
    ) {
        self.time = time
        self.arrival = arrival
        self.variant = variant
        self.bytes = bytes
        self.latency = latency
        self.transfer = transfer
        self.abandoned = abandoned
    }
}
