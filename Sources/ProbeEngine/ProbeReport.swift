package import MediaIO
package import BufprobeOutput

/// The `bufprobe probe --json` document for one input. Property names become snake_case keys
/// (`JSONOutput`), missing values are written as `null`; keys are stable: new ones may be added,
/// existing ones keep their meaning (`schema_version` changes otherwise).
package struct ProbeReport: Sendable, Codable {
    /// Version of this JSON layout.
    package var schemaVersion = 1
    /// The bufprobe version that wrote the document.
    package var bufprobeVersion = BufprobeVersion.string
    /// The FFmpeg libraries that read the media (`--version` lists the same).
    package var ffmpegVersions = FFmpegVersions.current
    /// The path or URL as given on the command line.
    package var source: String
    /// The container's own figures; `nil` when the input could not be opened.
    @NullEncoded package var format: Format?
    /// First presentation time and end of the last packet over all streams, in seconds.
    @NullEncoded package var packetSpan: Span?
    /// Every stream with what its packets showed.
    package var streams: [Stream]
    /// The streams the playable ranges are computed from (best video and best audio).
    package var playableStreams: [Int]
    /// Playable loaded ranges: intersection of the playable streams' ranges, `[[start, end], ...]`.
    package var loadedRanges: [[Double]]
    /// Holes in the playable timeline.
    package var gaps: [Gap]
    /// `false` when reading stopped before the end (truncated or damaged input, read error).
    package var complete: Bool
    /// Seconds spent opening and reading.
    package var readTime: Double
    /// Problems noticed, one sentence each.
    package var warnings: [String]
    /// Why the input could not be opened or read; `nil` on success.
    @NullEncoded package var error: String?
    /// Minimum bandwidth for each startup delay (1, 2, 5, 10 s and `--plot-startup-delay`), for a
    /// progressive download in file order; empty for playlists (HLS: see `hls`) and unreadable inputs.
    package var needs: [Need] = []
    /// Minimum startup delay for each bandwidth of a fixed ladder; empty where `needs` is.
    package var bandwidthTable: [BandwidthRow] = []
    /// What the `needs` figures assume: time origin, latency, where the index is.
    @NullEncoded package var needsBasis: NeedsBasis? = nil
    /// MP4/MOV: `true` when the index (`moov`) precedes the media data (`mdat`), `false` when it follows
    /// it; `nil` for other formats and inputs whose boxes cannot be read (URLs).
    @NullEncoded package var faststart: Bool? = nil
    /// How far apart the played video and audio are in the file; `nil` without both.
    @NullEncoded package var interleave: Interleave? = nil
    /// Peak bit rate over 1, 5 and 10 s windows against the average, every stream together.
    @NullEncoded package var bitRateProfile: BitRateProfile? = nil
    /// HLS inputs: each variant's segments against its declared `BANDWIDTH`; `nil` otherwise.
    @NullEncoded package var hls: HLSView? = nil

    /// The container figures.
    package struct Format: Sendable, Codable {
        /// Demuxer short name.
        package var name: String
        /// Demuxer long name.
        package var longName: String
        /// The container's declared duration in seconds (ffprobe's `format.duration`), or `nil`.
        @NullEncoded package var duration: Double?
        /// The container's start time in seconds.
        @NullEncoded package var startTime: Double?
        /// Declared overall bit rate, bits per second.
        @NullEncoded package var bitRate: Int64?
        /// Input size in bytes, when known.
        @NullEncoded package var size: Int64?
    }

    /// A time span in seconds.
    package struct Span: Sendable, Codable {
        /// Start, seconds.
        package var start: Double
        /// End, seconds.
        package var end: Double
        /// `end - start`.
        package var duration: Double
    }

    /// A hole in the timeline.
    package struct Gap: Sendable, Codable {
        /// Where the hole starts (end of the data before it), seconds.
        package var start: Double
        /// Where data resumes, seconds.
        package var end: Double
        /// Length of the hole, seconds.
        package var duration: Double
    }

    /// Minimum, average and maximum of a series (seconds for intervals, counts for GOP frames).
    package struct Interval: Sendable, Codable {
        /// Shortest.
        package var min: Double
        /// Mean.
        package var avg: Double
        /// Longest.
        package var max: Double
    }

    /// One stream.
    package struct Stream: Sendable, Codable {
        /// Container index.
        package var index: Int
        /// `video`, `audio`, `subtitle`, `data`, `attachment` or `unknown`.
        package var type: String
        /// Codec short name as ffprobe's `codec_name`.
        package var codec: String
        /// Codec profile, when any.
        @NullEncoded package var profile: String?
        /// Time base as `num/den`.
        package var timeBase: String
        /// Video picture width.
        @NullEncoded package var width: Int?
        /// Video picture height.
        @NullEncoded package var height: Int?
        /// Video pixel format.
        @NullEncoded package var pixelFormat: String?
        /// Average frame rate, frames per second.
        @NullEncoded package var frameRate: Double?
        /// Audio sample rate, Hz.
        @NullEncoded package var sampleRate: Int?
        /// Audio channel count.
        @NullEncoded package var channels: Int?
        /// Audio channel layout.
        @NullEncoded package var channelLayout: String?
        /// Disposition flags.
        package var disposition: [String]
        /// Stream duration the container declares, seconds.
        @NullEncoded package var declaredDuration: Double?
        /// Bit rate the container declares, bits per second.
        @NullEncoded package var declaredBitRate: Int64?
        /// Packets the demuxer returned, corrupt ones included (as ffprobe's `nb_read_packets`).
        package var packets: Int
        /// Packets flagged corrupt.
        package var corruptPackets: Int
        /// Payload bytes.
        package var bytes: Int64
        /// Keyframe packets.
        package var keyframes: Int
        /// The packets' presentation span.
        @NullEncoded package var span: Span?
        /// `bytes * 8 / span.duration`.
        @NullEncoded package var averageBitRate: Double?
        /// Peak over any 1 s window of decode time, bits per second.
        @NullEncoded package var peakBitRate: Double?
        /// Time between consecutive keyframes (video), seconds.
        @NullEncoded package var keyframeInterval: Interval?
        /// Packets (frames) per GOP, keyframe to keyframe in read order (video).
        @NullEncoded package var gopFrames: Interval? = nil
        /// Packets whose decode time went backwards.
        package var nonMonotonicDts: Int
        /// The stream's own loaded ranges.
        package var loadedRanges: [[Double]]
    }

}
