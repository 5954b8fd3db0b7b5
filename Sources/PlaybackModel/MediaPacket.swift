/// One demuxed packet as the model sees it: a plain value with no FFmpeg types, so the same model is
/// fed by a real file, a live stream and a simulated download.
public struct MediaPacket: Sendable, Hashable {
    /// Index of the stream the packet belongs to, as numbered by the container.
    public var stream: Int
    /// Presentation time in seconds; `nil` when the container does not know it.
    public var pts: Double?
    /// Decoding time in seconds; `nil` when the container does not know it.
    public var dts: Double?
    /// Presentation duration in seconds; `nil` or 0 when unknown.
    public var duration: Double?
    /// Payload size in bytes.
    public var size: Int
    /// Byte offset of the packet in the input; `nil` when unknown (network protocols, some demuxers).
    public var position: Int64?
    /// Whether the packet starts a keyframe (a point where decoding can begin).
    public var isKeyframe: Bool

    /// Creates a packet value.
    public init(
        stream: Int, pts: Double?, dts: Double?, duration: Double?, size: Int, position: Int64?,
        isKeyframe: Bool
    ) {
        self.stream = stream
        self.pts = pts
        self.dts = dts
        self.duration = duration
        self.size = size
        self.position = position
        self.isKeyframe = isKeyframe
    }
}
