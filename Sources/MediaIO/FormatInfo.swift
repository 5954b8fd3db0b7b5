/// What the container says about the whole input.
public struct FormatInfo: Sendable, Hashable {
    /// libavformat's short name for the demuxer (`mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`, `hls`...).
    public var name: String
    /// The demuxer's long name, for people.
    public var longName: String
    /// The container's own duration in seconds (ffprobe's `format.duration`); `nil` when it has none.
    public var duration: Double?
    /// The container's start time in seconds (ffprobe's `format.start_time`).
    public var startTime: Double?
    /// The container's declared overall bit rate in bits per second.
    public var bitRate: Int64?
    /// Size of the input in bytes, when the protocol knows it (files, HTTP with Content-Length).
    public var size: Int64?
    /// Container metadata tags (title, encoder...).
    public var tags: [String: String]

    /// Whether the demuxer reads its media from other resources (HLS and DASH segments, a concat list's
    /// files): the input's own size, byte position and byte counter then describe the playlist, not the
    /// media, and packet positions are not offsets in it.
    public var readsOtherResources: Bool { Self.readsOtherResources(formatName: name) }

    /// `readsOtherResources` for a demuxer short name.
    public static func readsOtherResources(formatName: String) -> Bool {
        ["hls", "dash", "concat"].contains(formatName)
    }

    /// Whether the demuxer `formatName` opens the resources it reads with `avio_open2` itself instead of
    /// the context's `io_open` (FFmpeg 5.1's `dash`), so that no `RequestPolicy` can check them: such a
    /// demuxer is not allowed under a policy.
    public static func bypassesResourceGate(formatName: String) -> Bool { formatName == "dash" }
}
