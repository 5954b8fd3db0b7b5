package import BufprobeOutput
/// One HLS variant validated by `check --all-variants` (JSON `variant_checks[]`): what the master playlist
/// declares about it, what its media playlist and first segment really hold, and every disagreement.
package struct VariantCheck: Sendable, Codable, Hashable {
    /// 0-based position in the master playlist, as `--variant N` takes it.
    package var index: Int
    /// The media playlist's URI as the master writes it.
    package var uri: String
    /// What the master's `#EXT-X-STREAM-INF` says.
    package var declared: Declared
    /// What was found.
    package var measured: Measured
    /// Each disagreement or failure; empty when the variant is what it says.
    package var problems: [Problem]
    /// What could not be compared and why (FFmpeg cannot tell, or the master does not say), one sentence
    /// each; never a problem.
    package var unverified: [String]

    /// The kinds of its problems, each once, in the order first found.
    package var problemKinds: [Kind] {
        problems.map(\.kind).reduce(into: []) { kinds, kind in if !kinds.contains(kind) { kinds.append(kind) } }
    }

    /// The master's attributes for the variant (values no picture or rate can have are `null` here and
    /// an `invalid_attribute` problem).
    package struct Declared: Sendable, Codable, Hashable {
        /// `BANDWIDTH`, bit/s (the peak segment bit rate, RFC 8216 §4.3.4.2).
        package var bandwidth: Int
        /// `AVERAGE-BANDWIDTH`, bit/s.
        @NullEncoded package var averageBandwidth: Int?
        /// `RESOLUTION` as `WIDTHxHEIGHT`.
        @NullEncoded package var resolution: String?
        /// `CODECS` as written.
        @NullEncoded package var codecs: String?
        /// `FRAME-RATE`.
        @NullEncoded package var frameRate: Double?
    }

    /// What the media playlist and the first segment (with its `#EXT-X-MAP`) really hold.
    package struct Measured: Sendable, Codable, Hashable {
        /// Picture width of the video stream, pixels.
        @NullEncoded package var width: Int?
        /// Picture height of the video stream, pixels.
        @NullEncoded package var height: Int?
        /// Every audio and video stream of the first segment.
        package var codecs: [Codec]
        /// Video frames per second (average frame rate, else the timestamps' base rate).
        @NullEncoded package var frameRate: Double?
        /// The highest segment bit rate (bytes x 8 / `#EXTINF` duration) over the segments measured.
        @NullEncoded package var peakBitRate: Double?
        /// Their bytes x 8 over their total duration.
        @NullEncoded package var averageBitRate: Double?
        /// Segments whose size was learned (the first N of the playlist; a size the server does not tell is
        /// left out).
        package var segmentsMeasured: Int

        /// Nothing measured.
        package static let none = Measured(
            width: nil, height: nil, codecs: [], frameRate: nil, peakBitRate: nil, averageBitRate: nil, segmentsMeasured: 0)
    }

    /// One stream of the first segment.
    package struct Codec: Sendable, Codable, Hashable {
        /// `video` or `audio`.
        package var type: String
        /// FFmpeg's codec name (`h264`, `aac`...).
        package var codec: String
        /// FFmpeg's profile name (`High`, `LC`...), when known.
        @NullEncoded package var profile: String?
        /// The level in FFmpeg's numbering (H.264 30 = 3.0), when known.
        @NullEncoded package var level: Int?
    }

    /// One disagreement.
    package struct Problem: Sendable, Codable, Hashable {
        /// Stable snake_case kind (a Prometheus label).
        package var kind: Kind
        /// One sentence naming the variant.
        package var message: String
    }

    /// The kinds of problem, stable for scripts and metrics.
    package enum Kind: String, Sendable, Codable, Hashable, CaseIterable {
        /// The media playlist could not be loaded, is not a media playlist, or lists no segment.
        case playlistFailed = "playlist_failed"
        /// The first segment (or its init section) could not be fetched or opened as media.
        case segmentFailed = "segment_failed"
        /// `RESOLUTION` differs from the video's real picture size.
        case resolutionMismatch = "resolution_mismatch"
        /// `CODECS` names a codec the segment lacks, misses one it has, or a wrong profile or level.
        case codecsMismatch = "codecs_mismatch"
        /// `FRAME-RATE` differs from the real frame rate by more than 1%.
        case frameRateMismatch = "frame_rate_mismatch"
        /// The peak segment bit rate is more than 10% above `BANDWIDTH`.
        case bandwidthExceeded = "bandwidth_exceeded"
        /// The average bit rate measured is more than 10% above `AVERAGE-BANDWIDTH`.
        case averageBandwidthExceeded = "average_bandwidth_exceeded"
        /// An attribute has a value no picture or rate can have (`RESOLUTION=0x0`, `FRAME-RATE=nan`).
        case invalidAttribute = "invalid_attribute"
    }
}
