/// What a predictive keep-up decision knows about the network and the media's size.
public struct NetworkEstimate: Sendable, Hashable {
    /// Estimated download throughput in bytes per second (e.g. `ThroughputEstimator.bytesPerSecond`).
    public var bytesPerSecond: Double
    /// Average size of one second of media in bytes (the bitrate / 8), when known.
    public var mediaBytesPerSecond: Double?
    /// Bytes still to load up to the end of the media, when known (e.g. file size minus bytes read).
    public var remainingBytes: Double?

    /// Creates an estimate.
    public init(bytesPerSecond: Double, mediaBytesPerSecond: Double? = nil, remainingBytes: Double? = nil) {
        self.bytesPerSecond = bytesPerSecond
        self.mediaBytesPerSecond = mediaBytesPerSecond
        self.remainingBytes = remainingBytes
    }
}
