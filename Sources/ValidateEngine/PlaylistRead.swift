public import MediaIO

/// What was read of one playlist: where from, its role in the stream, what the parser made of it, the
/// features its text uses, and its segments as far as they were read.
public struct PlaylistRead: Sendable, Hashable {
    /// The playlist's part in the stream.
    public enum Role: String, Sendable, Hashable, Codable {
        /// The multivariant (master) playlist.
        case multivariant
        /// A variant's media playlist (`#EXT-X-STREAM-INF`).
        case variant
        /// A rendition's media playlist (`#EXT-X-MEDIA` with a URI).
        case rendition
        /// An I-frame playlist (`#EXT-X-I-FRAME-STREAM-INF`).
        case iFrame = "i_frame"
        /// A media playlist given as the input.
        case media
    }

    /// Where it was read from (resolved).
    public var uri: String
    /// Its role.
    public var role: Role
    /// The parsed playlist, `nil` when it could not be read or parsed.
    public var playlist: HLSPlaylist?
    /// What its text uses that needs a protocol version.
    public var features: PlaylistFeatures
    /// Why it could not be read (a clause), or `nil`.
    public var error: String?
    /// Its segments that were read (or failed), in playlist order; segments past a bound are absent.
    public var segments: [SegmentRead] = []

    /// A playlist read.
    public init(uri: String, role: Role, playlist: HLSPlaylist?, features: PlaylistFeatures, error: String? = nil) {
        self.uri = uri
        self.role = role
        self.playlist = playlist
        self.features = features
        self.error = error
    }

    /// How many segments the playlist lists.
    public var segmentsListed: Int { playlist?.segments.count ?? 0 }

    /// Whether every segment it lists was read, with no failure: the whole-playlist rules (apple:8.1) need it.
    public var isComplete: Bool {
        segments.count == segmentsListed && segments.allSatisfy { $0.error == nil && $0.bytes != nil }
    }
}
