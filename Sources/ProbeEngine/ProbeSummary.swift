/// What `MediaProbe.probe` found in one input: the typed core of the `bufprobe probe --json` document,
/// and the document itself.
public struct ProbeSummary: Sendable, Hashable {
    /// The container, as the demuxer reports it.
    public struct Format: Sendable, Hashable {
        /// The demuxer's short name (`mov,mp4,m4a,3gp,3g2,mj2`, `mpegts`, `hls`...).
        public var name: String
        /// The demuxer's long name.
        public var longName: String
        /// The container's declared duration in seconds, when it declares one.
        public var duration: Double?
        /// The container's start time in seconds.
        public var startTime: Double?
        /// The input's size in bytes, when known.
        public var size: Int64?
    }

    /// What a stream carries.
    public enum StreamKind: String, Sendable, Hashable {
        /// Video.
        case video
        /// Audio.
        case audio
        /// Subtitles.
        case subtitle
        /// Timed data.
        case data
        /// An attached file.
        case attachment
        /// Anything else.
        case unknown
    }

    /// One stream and what its packets showed.
    public struct Stream: Sendable, Hashable {
        /// The stream's index in the container.
        public var index: Int
        /// What it carries.
        public var kind: StreamKind
        /// The codec's short name, as ffprobe's `codec_name`.
        public var codec: String
        /// Packets the demuxer returned, corrupt ones included.
        public var packets: Int
        /// Packets flagged corrupt.
        public var corruptPackets: Int
        /// Keyframe packets.
        public var keyframes: Int
        /// Payload bytes.
        public var bytes: Int64
        /// The stream's own loaded ranges, seconds.
        public var loadedRanges: [TimeSpan]
    }

    /// A stretch of media time, in seconds.
    public struct TimeSpan: Sendable, Hashable {
        /// Start, seconds.
        public var start: Double
        /// End, seconds.
        public var end: Double
        /// `end - start`, seconds.
        public var duration: Double { end - start }
    }

    /// The path or URL as given.
    public var source: String
    /// The container; `nil` only for documents of unreadable inputs, which `probe` throws instead.
    public var format: Format?
    /// The container's declared duration in seconds (`format.duration`), when any.
    public var duration: Double? { format?.duration }
    /// Every stream.
    public var streams: [Stream]
    /// The streams the playable ranges are computed from (best video and best audio), by index.
    public var playableStreams: [Int]
    /// Playable loaded ranges: where every playable stream has data.
    public var loadedRanges: [TimeSpan]
    /// Holes in the playable timeline.
    public var gaps: [TimeSpan]
    /// `false` when reading stopped before the end: truncated or damaged input, a read error, a timeout.
    public var complete: Bool
    /// `true` when reading stopped before the end (`!complete`).
    public var truncated: Bool { !complete }
    /// Why reading stopped early, when a read failed; `nil` otherwise.
    public var readError: String?
    /// Problems noticed, one sentence each (the document's `warnings`).
    public var warnings: [String]
    /// The document `bufprobe probe --json` writes for this input, trailing newline included. Its
    /// `read_time` is this read's own wall-clock time.
    public var json: String

    init(_ report: ProbeReport, json: String) {
        func spans(_ pairs: [[Double]]) -> [TimeSpan] {
            pairs.compactMap { pair in pair.count == 2 ? TimeSpan(start: pair[0], end: pair[1]) : nil }
        }
        source = report.source
        format = report.format.map {
            Format(name: $0.name, longName: $0.longName, duration: $0.duration, startTime: $0.startTime, size: $0.size)
        }
        streams = report.streams.map {
            Stream(
                index: $0.index, kind: StreamKind(rawValue: $0.type) ?? .unknown, codec: $0.codec, packets: $0.packets,
                corruptPackets: $0.corruptPackets, keyframes: $0.keyframes, bytes: $0.bytes,
                loadedRanges: spans($0.loadedRanges))
        }
        playableStreams = report.playableStreams
        loadedRanges = spans(report.loadedRanges)
        gaps = report.gaps.map { TimeSpan(start: $0.start, end: $0.end) }
        complete = report.complete
        readError = report.error
        warnings = report.warnings
        self.json = json
    }
}
