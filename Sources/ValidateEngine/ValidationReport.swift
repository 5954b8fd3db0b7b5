public import MediaIO

/// A variant as the multivariant playlist declares it.
public typealias HLSPlaylistVariant = HLSPlaylist.Variant

/// What `validate` reports for one input: the findings (after `--ignore`), the rules checked, the measured
/// table per variant, and what the bounds left unread. Every output (text, JSON, JUnit) renders it.
public struct ValidationReport: Sendable, Hashable {
    /// One row of the measured table: a variant's declared figures beside the measured ones.
    public struct VariantRow: Sendable, Hashable, Codable {
        /// Its position in the multivariant playlist, from 1 (0 for a media playlist given as the input).
        public var number: Int
        /// Its media playlist.
        public var uri: String
        /// `BANDWIDTH`, bits per second (`nil` for a media playlist input).
        public var bandwidth: Int?
        /// `AVERAGE-BANDWIDTH`, bits per second.
        public var averageBandwidth: Int?
        /// Measured peak segment bit rate (with its audio rendition's), bits per second.
        public var measuredPeak: Double?
        /// Measured average segment bit rate, bits per second.
        public var measuredAverage: Double?
        /// `CODECS`.
        public var codecs: String?
        /// `RESOLUTION`.
        public var resolution: String?
        /// The video's picture size as read, `WIDTHxHEIGHT`.
        public var measuredResolution: String?
        /// Segments read.
        public var segmentsRead: Int
        /// Segments the playlist lists.
        public var segmentsListed: Int
        /// DASH: the `Representation@id` (`uri` is then the MPD's).
        public var id: String? = nil
        /// DASH: the smallest `@bandwidth` the media needs with `MPD@minBufferTime` (`LeakyBucket`), bits per second.
        public var neededBandwidth: Double? = nil
        /// DASH: `@frameRate` as written.
        public var frameRate: String? = nil
        /// DASH: the video's frames per second as read.
        public var measuredFrameRate: Double? = nil
    }

    /// What the input was.
    public enum Format: String, Sendable, Hashable, Codable {
        /// An HLS multivariant or media playlist.
        case hls
        /// A DASH MPD.
        case dash
    }

    /// The input as given.
    public var source: String
    /// HLS or DASH.
    public var format: Format
    /// The findings, must before should, in catalogue order.
    public var findings: [Finding]
    /// The rules judged (the catalogue's ids for the input's format but the ignored ones).
    public var rulesChecked: [String]
    /// The measured table.
    public var variants: [VariantRow]
    /// Media playlists read (variants, renditions, I-frame playlists), or a DASH MPD's representations.
    public var playlists: Int
    /// Segments read in all.
    public var segmentsRead: Int
    /// Bytes of segments read in all.
    public var bytesRead: Int64
    /// What the bounds left unread, as sentences.
    public var notRead: [String]
    /// Seconds the validation took.
    public var seconds: Double

    /// Must-fix findings.
    public var mustFix: [Finding] { findings.filter { $0.level == .must } }
    /// Should-fix findings.
    public var shouldFix: [Finding] { findings.filter { $0.level == .should } }

    /// The report of `read` judged into `findings`.
    public init(read: StreamRead, findings: [Finding], ignored: Set<String>, seconds: Double) {
        source = read.source
        format = read.dash == nil ? .hls : .dash
        self.findings = findings.sorted { $0.level < $1.level }
        rulesChecked = ValidationCatalogue.rules(for: format).map(\.id).filter { !ignored.contains($0) }
        notRead = read.notRead
        self.seconds = seconds
        if let dash = read.dash {
            playlists = dash.representations.count
            segmentsRead = dash.representations.reduce(0) { $0 + $1.segments.filter { $0.bytes != nil }.count }
            bytesRead = dash.representations.reduce(0) { $0 + $1.segments.reduce(0) { $0 + ($1.bytes ?? 0) } }
            variants = dash.representations.map { Self.row(dash, $0) }
            return
        }
        playlists = read.playlists.count
        segmentsRead = read.playlists.reduce(0) { $0 + $1.segments.filter { $0.bytes != nil }.count }
        bytesRead = read.playlists.reduce(0) { $0 + $1.segments.reduce(0) { $0 + ($1.bytes ?? 0) } }
        if read.multivariant == nil, let playlist = read.playlists.first {
            let figures = SegmentBitRates.measure(playlist)
            variants = [Self.row(number: 0, playlist: playlist, declared: nil, figures: figures)]
        } else {
            variants = read.variants.map { variant in
                Self.row(
                    number: variant.number, playlist: read.playlists[variant.playlist], declared: variant.declared,
                    figures: HLSRules.measured(variant, in: read))
            }
        }
    }

    private static func row(number: Int, playlist: PlaylistRead, declared: HLSPlaylistVariant?, figures: SegmentBitRates?) -> VariantRow {
        let video = playlist.segments.lazy.compactMap { $0.streams.first { $0.type == .video } }.first
        return VariantRow(
            number: number, uri: playlist.uri, bandwidth: declared?.bandwidth, averageBandwidth: declared?.averageBandwidth,
            measuredPeak: figures?.peak.rounded(), measuredAverage: figures?.average.rounded(), codecs: declared?.codecs,
            resolution: declared?.resolution?.description,
            measuredResolution: video.flatMap { stream in stream.width.flatMap { width in stream.height.map { "\(width)x\($0)" } } },
            segmentsRead: playlist.segments.filter { $0.bytes != nil }.count, segmentsListed: playlist.segmentsListed)
    }

    /// The row of a DASH representation: declared `@bandwidth` beside the rate its media needs and its
    /// average (its bytes over its declared durations), codecs, sizes and frame rates declared and read.
    private static func row(_ dash: DASHRead, _ representation: DASHRead.Representation) -> VariantRow {
        let declared = representation.declared
        let measured = DASHRules.measured(representation)
        let video = measured.lazy.compactMap { $0.streams.first { $0.type == .video } }.first
        let figures = SegmentBitRates.measure(measured.compactMap { segment in segment.bytes.map { (bytes: $0, duration: segment.declaredDuration) } }, targetDuration: nil)
        var row = VariantRow(
            number: representation.number, uri: dash.uri, bandwidth: declared.bandwidth, averageBandwidth: nil, measuredPeak: nil,
            measuredAverage: figures?.average.rounded(), codecs: declared.codecs,
            resolution: declared.width.flatMap { width in declared.height.map { "\(width)x\($0)" } },
            measuredResolution: video.flatMap { stream in stream.width.flatMap { width in stream.height.map { "\(width)x\($0)" } } },
            segmentsRead: representation.segments.filter { $0.bytes != nil }.count, segmentsListed: representation.segmentsListed)
        row.id = declared.id
        row.neededBandwidth = DASHRules.neededBandwidth(representation, minBufferTime: dash.minBufferTime)?.rounded(.up)
        row.frameRate = declared.frameRate
        row.measuredFrameRate = DASHRules.measuredFrameRate(measured).map { ($0 * 1000).rounded() / 1000 }
        return row
    }
}
