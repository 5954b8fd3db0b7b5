package import MediaIO
package import PlaybackModel
package import BufprobeOutput

/// The `bufprobe check --json` document for one input. Property names become snake_case keys
/// (`JSONOutput`); missing values are written as `null`. Times are seconds on the wall clock from the
/// moment the check began (before connecting), media positions are seconds of media time.
package struct CheckReport: Sendable, Codable {
    /// Version of this JSON layout.
    package var schemaVersion = 1
    /// The bufprobe version that wrote the document.
    package var bufprobeVersion = BufprobeVersion.string
    /// The FFmpeg libraries that read the media (`--version` lists the same).
    package var ffmpegVersions = FFmpegVersions.current
    /// The URL or path as given.
    package var source: String
    /// `pass`, `degraded` or `fail`.
    package var verdict: CheckVerdict
    /// Why, in one sentence.
    package var reason: String
    /// Whether the check was stopped before its end (Ctrl-C, SIGTERM, `StreamCheck.cancel()`): the
    /// report covers what was measured until then (the verdict is `fail` when reading was cut short).
    /// Every check sets it (a document written before it existed decodes without it).
    package var interrupted: Bool?
    /// Seconds to open the input and read its stream information (connecting included).
    @NullEncoded package var openTime: Double?
    /// Seconds until the first packet was returned.
    @NullEncoded package var firstPacketTime: Double?
    /// Seconds until the player could start: the start threshold buffered (opening included); `null`
    /// when it never started.
    @NullEncoded package var startupDelay: Double?
    /// Bytes received x 8 / seconds from the start to the last packet.
    @NullEncoded package var throughputBps: Double?
    /// Media seconds received per wall second, from the first packet to the last; `null` for a live stream
    /// whose media is on the clock (`live_latency`): the start behind the edge downloads its backlog at
    /// once (which is not delivery faster than real time), then the player's playlist reloads pace it, so
    /// whether it kept up is `live_latency.drift` and the stalls.
    @NullEncoded package var realtimeFactor: Double?
    /// The declared bit rate: the chosen variant's `BANDWIDTH` for HLS, the chosen representations'
    /// `@bandwidth` for DASH, else the container's bit rate.
    @NullEncoded package var declaredBitRate: Double?
    /// Where `declared_bit_rate` comes from: `variant` (HLS `BANDWIDTH`, a peak: the 10% rule applies),
    /// `representation` (DASH `@bandwidth`, an average over its buffer window), `container`, or `null`.
    @NullEncoded package var declaredBitRateSource: String?
    /// Average bit rate of the received packets of the played streams over their media span.
    @NullEncoded package var measuredBitRate: Double?
    /// Highest bit rate of those packets in any 1 s window of media time.
    @NullEncoded package var peakBitRate: Double?
    /// Number of stalls.
    package var stallCount: Int
    /// Seconds stalled in total.
    package var stallTime: Double
    /// Every stall: media position (from the playable start), wall-clock start, duration.
    package var stalls: [QoEReport.Stall]
    /// Stall time over stall time plus played time; `null` when playback never started.
    @NullEncoded package var rebufferRatio: Double?
    /// Playable media received, `[[start, end], ...]`, from the playable start.
    package var loadedRanges: [[Double]]
    /// Holes in the media the player jumped instead of stalling at them (at most `Player.maxGapJump`
    /// seconds each), `[[start, end], ...]` from the playable start; the verdict is degraded for any.
    package var skippedHoles: [[Double]] = []
    /// The media timestamp shown as 0 (the playable start), `null` before the input opened: add it to any
    /// time in this report to get the media's own timestamps (as `probe` reports them).
    @NullEncoded package var timeOrigin: Double?
    /// Seconds the stream was received for (from the start to the end of reading).
    package var sampledDuration: Double
    /// Whether the stream has no declared end (a live stream).
    package var live: Bool
    /// Whether the whole media was received (`false` for a sample of a live or long stream).
    package var complete: Bool
    /// The media's declared duration, seconds.
    @NullEncoded package var duration: Double?
    /// Media seconds the player played.
    package var played: Double
    /// Seconds loaded ahead of the playhead when the check ended (for a live stream, the distance to the
    /// live edge is `liveLatency`).
    package var bufferedAhead: Double
    /// Bytes received.
    @NullEncoded package var bytesReceived: Int64?
    /// The demuxer's short name (`mov,mp4,m4a,3gp,3g2,mj2`, `hls`...).
    @NullEncoded package var format: String?
    /// The streams the player plays.
    package var playableStreams: [Int]
    /// HLS variants (DASH: video representations), with the one played marked `selected`; empty for
    /// other inputs.
    package var variants: [Variant]
    /// How the live HLS media playlist behaved across its reloads; `nil` (`null`) for inputs that are not
    /// remote live HLS.
    @NullEncoded package var playlistHealth: PlaylistHealth?
    /// How a low-latency HLS stream behaved, played part by part (`LowLatencyReport`); `null` otherwise.
    @NullEncoded package var lowLatency: LowLatencyReport?
    /// Latency to the live edge (`LiveLatency`); `null` unless the stream is live and its media maps to a
    /// clock.
    @NullEncoded package var liveLatency: LiveLatency?
    /// How a live (dynamic) DASH manifest and the player's requests for it behaved (`DASHLiveReport`);
    /// `null` for every other input.
    @NullEncoded package var dashLive: DASHLiveReport?
    /// `--all-variants`: every HLS variant validated against its master's attributes, in master order;
    /// `null` without the option.
    @NullEncoded package var variantChecks: [VariantCheck]?
    /// The buffer policy and limits the verdict used.
    package var settings: Settings
    /// Problems FFmpeg reported, one line each.
    package var warnings: [String]
    /// Requests not made because the check's request policy refused them (`--deny-private`, `serve
    /// --allow-target`), by reason; each one is also a warning naming the URL. Every check sets it (a
    /// document written before it existed decodes without it).
    package var refusedRequests: RefusedRequests?

    /// Requests refused, by `RequestPolicy.Reason`.
    package struct RefusedRequests: Sendable, Codable, Hashable {
        /// URLs no `--allow-target` pattern matches (redirect targets included).
        package var notAllowed = 0
        /// URLs whose host resolves to a loopback, private or link-local address (`--deny-private`).
        package var privateAddress = 0

        /// None refused.
        package init() {}

        /// The counts of `Interrupter.refusedRequests`.
        package init(_ counts: [RequestPolicy.Reason: Int]) {
            notAllowed = counts[.notAllowed, default: 0]
            privateAddress = counts[.privateAddress, default: 0]
        }

        /// The count for `reason`.
        package subscript(reason: RequestPolicy.Reason) -> Int {
            switch reason {
            case .notAllowed: notAllowed
            case .privateAddress: privateAddress
            }
        }
    }

    /// One HLS variant or DASH video representation.
    package struct Variant: Sendable, Codable, Hashable {
        /// 0-based position, as `--variant N` takes it.
        package var index: Int
        /// Declared bandwidth, bit/s: HLS `BANDWIDTH`; DASH video plus audio `@bandwidth`.
        @NullEncoded package var bandwidth: Int64?
        /// Video resolution, when the variant has video.
        @NullEncoded package var width: Int?
        /// Video resolution, when the variant has video.
        @NullEncoded package var height: Int?
        /// Codec names of the variant's streams.
        package var codecs: [String]
        /// Stream indices of the variant.
        package var streams: [Int]
        /// Whether this is the variant the check played.
        package var selected: Bool
        /// What was downloaded of it: `all` for the played variant (every segment it reached); `opening`
        /// for the others, whose media playlist and first segment or two FFmpeg's HLS and DASH demuxers
        /// read while opening to learn each variant's streams, and nothing after that.
        package var fetched: Fetched

        /// What was downloaded of a variant.
        package enum Fetched: String, Sendable, Codable, Hashable {
            /// Every segment the check reached.
            case all
            /// Only what opening read: the media playlist and the first segment or two.
            case opening
        }
    }

    /// The thresholds in force.
    package struct Settings: Sendable, Codable, Hashable {
        /// `--start-threshold`.
        package var startThreshold: Double
        /// `--resume-threshold`.
        package var resumeThreshold: Double
        /// `--max-buffer`.
        package var maxBuffer: Double
        /// `--player`'s preset name; absent without one.
        package var player: String?
        /// The cap a doubling resume threshold grows to (the chromium, hlsjs and shaka presets); absent
        /// when the resume threshold is fixed.
        package var resumeCap: Double?
        /// `--max-startup`.
        package var maxStartup: Double
        /// `--timeout`.
        package var timeout: Double
        /// `--duration` (or the live default), `null` for the whole stream.
        @NullEncoded package var sampleLimit: Double?
        /// `--rate` for a local file, as given.
        @NullEncoded package var rate: String?
        /// `--variant`, as given (`best` by default).
        package var variant: String
        /// `--all-variants-segments` with `--all-variants`, else `null`.
        @NullEncoded package var allVariantsSegments: Int?
        /// The verdict's limits in force (`--max-stalls`, `--max-stall-time`, `--max-rebuffer-ratio`,
        /// `--max-startup`, `--max-latency`, `--max-drift`), `null` for one not limited. Every check sets it
        /// (a document written before it existed decodes without it).
        package var thresholds: VerdictThresholds?
    }
}
