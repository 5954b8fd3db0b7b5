public import MediaIO

/// Everything the driver (`StreamValidation`) read of one HLS stream (or DASH MPD, `dash`), the input of the
/// pure rules (`HLSRules`, `DASHRules`): the multivariant playlist when there is one, its variants with the media playlist each
/// points to, every media playlist with its segments as far as they were read, and what the bounds cut.
public struct StreamRead: Sendable, Hashable {
    /// One `#EXT-X-STREAM-INF` variant and the playlists it plays.
    public struct Variant: Sendable, Hashable {
        /// As the multivariant playlist declares it.
        public var declared: HLSPlaylist.Variant
        /// Its position in the multivariant playlist, from 1 (as reports name it).
        public var number: Int
        /// The index of its media playlist in `playlists`.
        public var playlist: Int
        /// The indexes in `playlists` of the renditions of its `AUDIO` group that have their own playlist.
        public var audio: [Int] = []

        /// A variant.
        public init(declared: HLSPlaylist.Variant, number: Int, playlist: Int, audio: [Int] = []) {
            self.declared = declared
            self.number = number
            self.playlist = playlist
            self.audio = audio
        }
    }

    /// The input as given.
    public var source: String
    /// The multivariant playlist, `nil` when the input is a media playlist.
    public var multivariant: PlaylistRead?
    /// The variants, in playlist order.
    public var variants: [Variant] = []
    /// Every media playlist read (or not), variants' first, then renditions and I-frame playlists.
    public var playlists: [PlaylistRead] = []
    /// The MPD and its representations, when the input is DASH (then `playlists` and `variants` are empty).
    public var dash: DASHRead?
    /// Sentences on what a bound left unread ("segments 41-300 of low/index.m3u8 were not read: --max-bytes").
    public var notRead: [String] = []

    /// A stream read.
    public init(source: String, multivariant: PlaylistRead? = nil) {
        self.source = source
        self.multivariant = multivariant
    }
}
