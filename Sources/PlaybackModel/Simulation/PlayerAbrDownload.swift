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

    /// Creates a download.
    public init(
        variant: Int, bytes: Int64, latency: Double, transfer: Double, abandoned: Bool = false, time: Double = 0
    ) {
        self.time = time
        self.variant = variant
        self.bytes = bytes
        self.latency = latency
        self.transfer = transfer
        self.abandoned = abandoned
    }
}
