/// One packet as libavformat returned it, converted to seconds once. A plain value: reading a packet
/// allocates nothing on the heap.
public struct Packet: Sendable, Hashable {
    /// Index of the stream the packet belongs to.
    public var stream: Int
    /// Presentation time in seconds; `nil` when unknown (`AV_NOPTS_VALUE`). Negative is valid (priming).
    public var pts: Double?
    /// Decoding time in seconds; `nil` when unknown.
    public var dts: Double?
    /// Presentation duration in seconds; `nil` when the demuxer does not know it.
    public var duration: Double?
    /// Payload size in bytes.
    public var size: Int
    /// Byte offset in the input; `nil` when the demuxer does not know it (`pos == -1`).
    public var position: Int64?
    /// Whether the packet holds a keyframe.
    public var isKeyframe: Bool
    /// Whether the demuxer flagged the packet as corrupt.
    public var isCorrupt: Bool
}
