/// One packet's fields as libavformat returned them, in the stream's own time base: what the reading
/// thread copies out of the `AVPacket` before it is reused. `PacketConverter` turns it into a `Packet`
/// (seconds, one continuous timeline), possibly on another thread, so a reader that hands packets to an
/// analysis thread does no conversion between two demuxer calls. 48 bytes, no references.
public struct RawPacket: Sendable, Hashable {
    /// Presentation time in time-base ticks; `AV_NOPTS_VALUE` when unknown.
    public var pts: Int64
    /// Decode time in time-base ticks; `AV_NOPTS_VALUE` when unknown.
    public var dts: Int64
    /// Duration in time-base ticks; 0 or less when unknown.
    public var duration: Int64
    /// Byte offset in the input; -1 when unknown.
    public var position: Int64
    /// Index of the stream; always one of the input's streams when `MediaInput` returns it.
    public var stream: Int32
    /// Payload size in bytes.
    public var size: Int32
    /// `AV_PKT_FLAG_*` bits.
    public var flags: Int32
}
