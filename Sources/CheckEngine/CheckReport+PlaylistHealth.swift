package import MediaIO
package import BufprobeOutput

extension CheckReport {
    /// `playlist_health`: how the live HLS media playlist the check played behaved across the reloads
    /// FFmpeg made (`PlaylistWatch`, rules in `HLSPlaylistHealth`). `null` in the report for inputs that
    /// are not remote live HLS.
    package struct PlaylistHealth: Sendable, Codable, Hashable {
        /// The played media playlist, `null` until one was reloaded.
        @NullEncoded package var url: String?
        /// Every media playlist watched: the played variant's first, then its renditions' (usually one).
        package var playlists: [String] = []
        /// Loads of the watched playlists seen (for a media playlist given as the input, from its first
        /// reload on: FFmpeg's own first read is not seen).
        package var reloads = 0
        /// Problems found, per kind (every kind present).
        package var counts = Counts()
        /// The problems, oldest first (at most 100 per playlist; `counts` keeps counting).
        package var events: [Event] = []

        /// An empty record.
        package init() {}

        /// One problem at one reload.
        package struct Event: Sendable, Codable, Hashable {
            /// The kind's stable name (`HLSPlaylistHealth.Kind`'s raw value).
            package var kind: String
            /// Wall seconds from the start of the check when the reload showing it was read.
            package var at: Double
            /// The media sequence number it is about, when known.
            @NullEncoded package var mediaSequence: Int?
            /// The playlist's URL.
            package var playlist: String
            /// One sentence naming the playlist, what happened and the sequence numbers.
            package var message: String
        }

        /// A count per problem kind; the JSON keys are the kinds' stable names.
        package typealias Counts = ProblemCounts<HLSPlaylistHealth.Kind>
    }
}
