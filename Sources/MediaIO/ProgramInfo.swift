/// A program of the input: for HLS and DASH, one variant (rendition) with the streams FFmpeg opened
/// for it and the bandwidth the playlist declares.
public struct ProgramInfo: Sendable, Hashable {
    /// The program id.
    public var id: Int
    /// Indices of the streams that belong to the program.
    public var streams: [Int]
    /// Declared bandwidth in bits per second (HLS `BANDWIDTH`, FFmpeg's `variant_bitrate`).
    public var declaredBitRate: Int64?
}
