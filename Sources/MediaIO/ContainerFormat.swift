/// The containers bufprobe treats differently, recognised in one place: by FFmpeg's demuxer short name
/// once an input is open, or by a URL's path before (a playlist or manifest named as one).
public enum ContainerFormat: Sendable, Hashable {
    /// HTTP Live Streaming: an `.m3u8` playlist (FFmpeg's `hls` demuxer).
    case hls
    /// MPEG-DASH: an `.mpd` manifest (FFmpeg's `dash` demuxer).
    case dash
    /// FFmpeg's `concat` list of files.
    case concat
    /// Any other container, by its demuxer's short name (`mov,mp4,m4a,3gp,3g2,mj2`, `mpegts`...).
    case other(String)

    /// The container of the demuxer named `name`.
    public init(demuxer name: String) {
        switch name {
        case "hls": self = .hls
        case "dash": self = .dash
        case "concat": self = .concat
        default: self = .other(name)
        }
    }

    /// FFmpeg's demuxer short name.
    public var demuxerName: String {
        switch self {
        case .hls: "hls"
        case .dash: "dash"
        case .concat: "concat"
        case .other(let name): name
        }
    }

    /// The adaptive format a URL or path names by its extension, before anything is read: `.m3u8` and
    /// `.m3u` for HLS, `.mpd` for DASH, case-insensitive, the query and fragment ignored; `nil` otherwise.
    public init?(namedBy url: String) {
        let path = url.split(whereSeparator: { $0 == "?" || $0 == "#" }).first.map { $0.lowercased() } ?? ""
        if path.hasSuffix(".m3u8") || path.hasSuffix(".m3u") {
            self = .hls
        } else if path.hasSuffix(".mpd") {
            self = .dash
        } else {
            return nil
        }
    }

    /// The adaptive format a resource's first bytes show, the one rule for "this looks like a playlist":
    /// past a UTF-8 byte order mark and white space, `#EXTM3U` is HLS; `<?xml` or `<MPD` is DASH (an MPD is
    /// XML; a caller that needs an MPD parses its root). `nil` otherwise. At most the first 64 bytes matter.
    public init?(head: some Sequence<UInt8>) {
        let skipped: Set<UInt8> = [0xEF, 0xBB, 0xBF, 0x20, 0x0A, 0x0D, 0x09]
        let bytes = Array(head.prefix(64).drop { skipped.contains($0) })
        if bytes.starts(with: Array("#EXTM3U".utf8)) {
            self = .hls
        } else if bytes.starts(with: Array("<?xml".utf8)) || bytes.starts(with: Array("<MPD".utf8)) {
            self = .dash
        } else {
            return nil
        }
    }

    /// Whether the demuxer is the MP4/MOV family (FFmpeg's `mov,mp4,m4a,3gp,3g2,mj2`): its index (`moov`)
    /// may follow the media, and its box headers can be read. By the name's comma-separated tokens, never
    /// by a substring (no other demuxer's name holds `mp4` or `mov` as a token).
    public var isMP4Family: Bool {
        guard case .other(let name) = self else { return false }
        return name.split(separator: ",").contains { $0 == "mp4" || $0 == "mov" }
    }

    /// Whether the demuxer reads its media from other resources (HLS and DASH segments, a concat list's
    /// files): the input's own size, byte position and byte counter then describe the playlist, not the
    /// media, and packet positions are not offsets in it.
    public var readsOtherResources: Bool {
        switch self {
        case .hls, .dash, .concat: true
        case .other: false
        }
    }

    /// Whether the demuxer opens the resources it reads with `avio_open2` itself instead of the context's
    /// `io_open` (FFmpeg 5.1's `dash`), so that no `RequestPolicy` can check them: such a demuxer is not
    /// allowed under a policy.
    public var bypassesResourceGate: Bool { self == .dash }
}
