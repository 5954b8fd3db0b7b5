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

    /// The container, recognised from the demuxer's name.
    public var container: ContainerFormat { ContainerFormat(demuxer: name) }

    /// Whether the demuxer reads its media from other resources (`ContainerFormat.readsOtherResources`).
    public var readsOtherResources: Bool { container.readsOtherResources }
}
