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
        package struct Counts: Sendable, Codable, Hashable {
            /// `media_sequence_regression`.
            package var mediaSequenceRegression = 0
            /// `discontinuity_sequence_error`.
            package var discontinuitySequenceError = 0
            /// `stale`.
            package var stale = 0
            /// `segment_over_target_duration`.
            package var segmentOverTargetDuration = 0
            /// `segment_count_shrink`.
            package var segmentCountShrink = 0
            /// `segment_uri_changed`.
            package var segmentUriChanged = 0
            /// `target_duration_changed`.
            package var targetDurationChanged = 0
            /// `parse_error`.
            package var parseError = 0

            /// No problems.
            package init() {}

            /// The count of `kind` (for a metric per kind: iterate `HLSPlaylistHealth.Kind.allCases`).
            package subscript(kind: HLSPlaylistHealth.Kind) -> Int {
                get {
                    switch kind {
                    case .mediaSequenceRegression: mediaSequenceRegression
                    case .discontinuitySequenceError: discontinuitySequenceError
                    case .stale: stale
                    case .segmentOverTargetDuration: segmentOverTargetDuration
                    case .segmentCountShrink: segmentCountShrink
                    case .segmentURIChanged: segmentUriChanged
                    case .targetDurationChanged: targetDurationChanged
                    case .parseError: parseError
                    }
                }
                set {
                    switch kind {
                    case .mediaSequenceRegression: mediaSequenceRegression = newValue
                    case .discontinuitySequenceError: discontinuitySequenceError = newValue
                    case .stale: stale = newValue
                    case .segmentOverTargetDuration: segmentOverTargetDuration = newValue
                    case .segmentCountShrink: segmentCountShrink = newValue
                    case .segmentURIChanged: segmentUriChanged = newValue
                    case .targetDurationChanged: targetDurationChanged = newValue
                    case .parseError: parseError = newValue
                    }
                }
            }

            /// Adds `count` to `kind`'s count, saturating.
            package mutating func add(_ count: Int, to kind: HLSPlaylistHealth.Kind) {
                let (sum, overflow) = self[kind].addingReportingOverflow(count)
                self[kind] = overflow ? .max : sum
            }
        }
    }
}
