package import BufprobeOutput
extension ProbeReport {
    /// One row of `needs`.
    package struct Need: Sendable, Codable, Equatable {
        /// Seconds between the first request and the start of playback.
        package var startupDelay: Double
        /// Minimum bandwidth in bits per second for a download in file order (`null` when no bandwidth
        /// is enough: the latency alone exceeds the delay). For an MP4 with its index at the end this is
        /// the whole file in `startup_delay` seconds.
        @NullEncoded package var minBandwidthBps: Double?
        /// MP4 with the index at the end only: the same for a player that fetches the index with range
        /// requests (two extra requests and the index bytes first); `null` otherwise.
        @NullEncoded package var minBandwidthBpsRangeRequests: Double?
    }

    /// One row of `bandwidth_table`.
    package struct BandwidthRow: Sendable, Codable, Equatable {
        /// Bandwidth in bits per second.
        package var bandwidthBps: Double
        /// Minimum startup delay in seconds for a download in file order.
        package var startupDelay: Double
        /// MP4 with the index at the end only: the same with range requests; `null` otherwise.
        @NullEncoded package var startupDelayRangeRequests: Double?
    }

    /// What the needs figures assume.
    package struct NeedsBasis: Sendable, Codable, Equatable {
        /// The presentation time counted as 0 (the playable start), seconds.
        @NullEncoded package var timeOrigin: Double?
        /// Latency per request, seconds (`--latency`).
        package var latency: Double
        /// Bytes of the file the figures were computed over (largest packet byte end).
        package var bytes: Int64
        /// Byte offset of the MP4 index (`moov`), when known.
        @NullEncoded package var indexOffset: Int64?
        /// Size of the MP4 index in bytes, when known.
        @NullEncoded package var indexBytes: Int64?
    }

    /// The `interleave` object.
    package struct Interleave: Sendable, Codable, Equatable {
        /// The two streams compared (played video, played audio).
        package var streams: [Int]
        /// Largest presentation-time distance between them at one point of the file, seconds.
        package var maxSkewSeconds: Double
        /// Largest byte distance between them at one presentation time.
        package var maxSkewBytes: Int64
    }

    /// The `bit_rate_profile` object.
    package struct BitRateProfile: Sendable, Codable, Equatable {
        /// All packet bytes x 8 over the packet span, bits per second.
        @NullEncoded package var averageBps: Double?
        /// One entry per window.
        package var peaks: [Peak]
    }

    /// One window of `bit_rate_profile.peaks`.
    package struct Peak: Sendable, Codable, Equatable {
        /// Window length, seconds.
        package var window: Double
        /// Peak bits per second over any window of that length of decode time; `null` when the media is
        /// shorter than the window.
        @NullEncoded package var peakBps: Double?
        /// `peak_bps / average_bps`.
        @NullEncoded package var peakToAverage: Double?
    }

    /// The `hls` object.
    package struct HLSView: Sendable, Codable, Equatable {
        /// One entry per media playlist (per variant of a master playlist, or the input itself).
        package var variants: [HLSVariant]
        /// Why the segments could not be listed (a remote playlist, a missing file), when they could not.
        @NullEncoded package var problem: String?
    }

    /// One variant of `hls.variants`.
    package struct HLSVariant: Sendable, Codable, Equatable {
        /// The media playlist, as the master playlist names it (or the input).
        package var uri: String
        /// Declared `BANDWIDTH` (peak), bits per second; `null` for a media playlist given directly.
        @NullEncoded package var bandwidth: Int?
        /// Declared `AVERAGE-BANDWIDTH`, bits per second.
        @NullEncoded package var averageBandwidth: Int?
        /// The segments in playlist order.
        package var segments: [HLSSegment]
        /// All segment bytes x 8 over the total duration.
        @NullEncoded package var averageBitRate: Double?
        /// The highest segment bit rate.
        @NullEncoded package var peakSegmentBitRate: Double?
        /// Indices of segments whose bit rate exceeds the declared `BANDWIDTH`.
        package var segmentsOverBandwidth: [Int]
        /// Minimum bandwidth per startup delay for this variant, one request per segment.
        package var needs: [Need]
    }

    /// One segment of a variant.
    package struct HLSSegment: Sendable, Codable, Equatable {
        /// URI as written.
        package var uri: String
        /// `#EXTINF` duration, seconds.
        package var duration: Double
        /// Bytes a client downloads for it.
        package var bytes: Int64
        /// `bytes * 8 / duration`; `null` for a zero duration.
        @NullEncoded package var bitRate: Double?
    }
}
