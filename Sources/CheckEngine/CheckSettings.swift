package import MediaIO
package import PlaybackModel
import BufprobeOutput

/// Everything one check needs from the command line, as plain values.
package struct CheckSettings: Sendable {
    /// The longest a single open or packet read may block, seconds.
    package var timeout: Double = 10
    /// Seconds to receive before stopping; `nil` receives the whole stream.
    package var duration: Double?
    /// How long a live stream is sampled when `duration` is not given, seconds.
    package static let defaultLiveSample = 30.0
    /// Extra HTTP request headers, `Name: value` each.
    package var headers: [String] = []
    /// The HTTP `User-Agent`; `nil` sends `BufprobeVersion.userAgent`.
    package var userAgent: String?
    /// Opt-in CMCD (CTA-5004) data sent with the requests, `nil` for none.
    package var cmcd: CMCD?
    /// `--live-start`: where a live HLS playlist is started.
    package var liveStart: LiveStart = .holdBack
    /// The HLS/DASH variant to play.
    package var variant: VariantChoice = .best
    /// The player's thresholds.
    package var policy: BufferPolicy = .default
    /// `--record-trace`: record the throughput over time (`CheckSession.recording()`).
    package var recordsTrace = false
    /// The `--player` preset the policy started from, when one was given.
    package var player: PlayerPreset?
    /// The limits the verdict holds the stream to (`--max-stalls`, `--max-startup`...).
    package var thresholds = VerdictThresholds.default
    /// Longest startup delay that still passes, seconds (`thresholds.maxStartup`).
    package var maxStartup: Double {
        get { thresholds.maxStartup }
        set { thresholds.maxStartup = newValue }
    }
    /// Delivery pace for local files.
    package var rate: ReadRate?
    /// `--all-variants`: validate every HLS variant against what the master declares.
    package var allVariants = false
    /// `--all-variants-segments`: segments sized per variant for the bandwidth comparison.
    package var allVariantsSegments = VariantProber.defaultSegments
    /// Wall seconds the whole `--all-variants` validation may take (the exporter's share of a scrape);
    /// `nil`: no bound beyond `--timeout` for each request. Variants not validated in time are named in a
    /// warning, not reported as failed.
    package var allVariantsBudget: Double?

    /// Play a low-latency HLS stream (`EXT-X-PART-INF`, `CAN-BLOCK-RELOAD=YES`) part by part with blocking
    /// reloads (`LowLatencyPlayback`); `false` (`--no-low-latency`) plays it as FFmpeg does, whole segments.
    package var lowLatency = true

    /// Which URLs the check may request (`--deny-private`, `serve --allow-target`); `nil`: any.
    package var requestPolicy: RequestPolicy?

    /// Creates the defaults.
    package init() {}

    /// Settings from typed values, validated once: what every front end (`check`'s options, `serve`'s
    /// `/probe` parameters, `StreamCheck.Options`) builds its check from. `policy` defaults to the
    /// `player`'s, else `BufferPolicy.default`.
    /// - Throws: `Invalid` for a value no check can use: a timeout, sample or startup limit not above 0, a
    ///   header that is not `Name: value` (`isHeader`), a segment count outside
    ///   1...`VariantProber.maxSegments`, an unusable policy or threshold.
    package init(
        timeout: Seconds = Seconds(10), duration: Seconds? = nil, policy: BufferPolicy? = nil,
        player: PlayerPreset? = nil, thresholds: VerdictThresholds = .default, headers: [String] = [],
        userAgent: String? = nil, cmcd: CMCD? = nil, variant: VariantChoice = .best, liveStart: LiveStart = .holdBack,
        rate: ReadRate? = nil, allVariants: Bool = false, allVariantsSegments: Int = VariantProber.defaultSegments,
        allVariantsBudget: Seconds? = nil, recordsTrace: Bool = false, lowLatency: Bool = true,
        requestPolicy: RequestPolicy? = nil
    ) throws(Invalid) {
        for (value, seconds) in [(Invalid.Value.timeout, timeout), (.maxStartup, Seconds(thresholds.maxStartup)), (.duration, duration)] {
            if let seconds, !(seconds.value > 0) { throw .notAboveZero(value, seconds) }
        }
        if let header = headers.first(where: { !Self.isHeader($0) }) { throw .header(header) }
        guard (1...VariantProber.maxSegments).contains(allVariantsSegments) else { throw .segments(allVariantsSegments) }
        let policy = policy ?? player?.policy ?? .default
        do { try policy.validate() } catch { throw .policy(error) }
        do { try thresholds.validate() } catch { throw .thresholds(error) }
        self.timeout = timeout.value
        self.duration = duration?.value
        self.policy = policy
        self.player = player
        self.thresholds = thresholds
        self.headers = headers
        self.userAgent = userAgent
        self.cmcd = cmcd
        self.variant = variant
        self.liveStart = liveStart
        self.rate = rate
        self.allVariants = allVariants
        self.allVariantsSegments = allVariantsSegments
        self.allVariantsBudget = allVariantsBudget?.value
        self.recordsTrace = recordsTrace
        self.lowLatency = lowLatency
        self.requestPolicy = requestPolicy
    }

    /// Whether `header` is a request header as `Name: value`: a name, then a colon. The one rule for every
    /// header a user gives (`check --header`, `StreamCheck.Options`, `serve`'s module `headers`).
    package static func isHeader(_ header: String) -> Bool {
        guard let colon = header.firstIndex(of: ":") else { return false }
        return colon != header.startIndex
    }

    /// A value `init(timeout:...)` refuses; `sentence(naming:)` says it with the front end's name for it.
    package enum Invalid: Error, Sendable {
        /// The values a sentence names.
        package enum Value: Sendable {
            /// The wait for data (`--timeout`).
            case timeout
            /// The longest startup that passes (`--max-startup`).
            case maxStartup
            /// The sample (`--duration`).
            case duration
        }

        /// A duration that must be above 0.
        case notAboveZero(Value, Seconds)
        /// A request header without `Name: value`.
        case header(String)
        /// `--all-variants-segments` out of its range.
        case segments(Int)
        /// The buffer policy's own sentence.
        case policy(BufferPolicyError)
        /// The thresholds' own sentence.
        case thresholds(VerdictThresholds.InvalidValue)

        /// One sentence, with `name` giving the front end's name of a value (`--timeout` on the command
        /// line, `timeout` as a `/probe` parameter).
        package func sentence(naming name: (Value) -> String) -> String {
            switch self {
            case .notAboveZero(let value, let seconds): "\(name(value)) must be more than 0 seconds, got \(seconds)."
            case .header(let header): "--header takes 'Name: value', got '\(header)'."
            case .segments(let count):
                "--all-variants-segments must be between 1 and \(VariantProber.maxSegments), got \(count)."
            case .policy(let error): "\(error)"
            case .thresholds(let error): error.description
            }
        }
    }

    /// The libavformat options for opening: `headers` (with CMCD's session keys in header mode) and
    /// `user_agent` (`BufprobeVersion.userAgent` unless set). No `timeout`/`rw_timeout`: the
    /// interrupt callback bounds every wait instead (with HLS those options hang or turn a stalled
    /// segment into a silent end of file).
    package var formatOptions: [String: String] {
        var options: [String: String] = [:]
        let all = headers + (cmcd?.sessionHeaders ?? [])
        if !all.isEmpty { options["headers"] = all.map { $0 + "\r\n" }.joined() }
        options["user_agent"] = userAgent ?? BufprobeVersion.userAgent
        return options
    }

    /// The URL FFmpeg opens for `source`: with CMCD in query mode, the first request's keys added as a
    /// `CMCD` query argument (`ot=m` for a playlist, `su` as it starts playback); otherwise `source`.
    package func requestURL(for source: String) -> String {
        guard let cmcd, cmcd.mode == .query else { return source }
        return cmcd.decorated(source, request: CMCD.Request(objectType: CMCD.ObjectType(guessingFrom: source), startup: true))
    }
}
