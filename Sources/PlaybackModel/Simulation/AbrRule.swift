/// How a simulated player picks the variant of the next segment of an HLS ladder (adaptive bit rate).
///
/// A rule is plain data; `AbrController` runs it. Every rule sees only what a player sees: the variants'
/// declared bit rates (ascending), the buffer ahead of the playhead when the request goes out, and the
/// throughput of the segments downloaded so far. The first segment goes out at the lowest variant for the
/// adaptive rules (nothing has been measured yet), as Sabre does.
public enum AbrRule: Sendable, Hashable {
    /// Always the same variant (an index into the ascending ladder): today's `--variant`.
    case fixed(variant: Int)
    /// Throughput-based, as Sabre's `ThroughputRule` / `Abr.quality_from_throughput`: the highest variant
    /// whose segment, fetched at `safetyFactor` times the throughput estimate after the estimated request
    /// latency, arrives within a segment duration `d` (`latency + d * bitrate / (safety * tput) <= d`;
    /// dash.js's ThroughputRule charges latency likewise with `useDeadTimeLatency`). The estimate is the
    /// sliding mean of the last `window` segments (Sabre's `SlidingWindow`) or Sabre's EWMA (`Ewma`), and
    /// Sabre's insufficient-buffer rule can cap the choice.
    case throughput(Throughput)
    /// BOLA (Spiteri, Urgaonkar, Sitaraman, "BOLA: Near-optimal bitrate adaptation for online videos",
    /// INFOCOM 2016), as Sabre's `Bola`: utilities `ln(bitrate / lowest)`, `V = (buffer size - d) /
    /// (u_max + gamma*p)`; the variant maximising `(V * (utility + gp) - buffer) / bitrate`. Variant `.u`
    /// (the default, Sabre's `Bola` without `--abr-basic`) adds the up-switch cap and Sabre's shorter buffer
    /// size near the start and the end; `.basic` is the formula alone.
    case bola(Bola)
    /// DYNAMIC, as Sabre's `Dynamic` (src/sabre.py, `class Dynamic`, lines 1011-1060), its model of dash.js's
    /// strategy: both rules choose every segment, and the session starts on the throughput side; it moves
    /// to BOLA's choice once the buffer is above `switchOn` seconds and BOLA picks at least the throughput
    /// rule's variant, and back once the buffer is below `switchOff` and BOLA picks a lower variant (Sabre:
    /// 10 s both). dash.js 5.1.1 differs: see docs/model.md.
    case dynamic(throughput: Throughput, bola: Bola, switchOn: Double, switchOff: Double)
    /// A real player's own logic (`--player` on `simulate`): its first choice, estimator, switch rule and
    /// abandonment, as the `PlayerAbrModel` states them.
    case player(PlayerAbr)

    /// How the throughput (and request latency) of past segments becomes an estimate.
    public enum Estimator: Sendable, Hashable {
        /// The mean of the last `window` segments' throughputs and latencies (Sabre's `SlidingWindow`).
        case sliding
        /// Sabre's `Ewma`: one exponentially weighted mean per half-life (seconds of transfer for the
        /// throughput, `half-life / d` segments for the latency), bias-corrected; the estimate is the lowest
        /// throughput and the highest latency of them (Sabre's defaults 3 s and 8 s).
        case ewma(halfLives: [Double])

        /// Sabre's default EWMA: half-lives 3 s and 8 s.
        public static let sabreEwma = Estimator.ewma(halfLives: [3, 8])
    }

    /// Parameters of the throughput rule.
    public struct Throughput: Sendable, Hashable {
        /// Fraction of the estimate a variant may use (dash.js `bandwidthSafetyFactor`, 0.9).
        public var safetyFactor: Double
        /// Segments averaged into the sliding estimate (Sabre's sliding window, 3).
        public var window: Int
        /// The estimator (the sliding window by default).
        public var estimator: Estimator
        /// Sabre's insufficient-buffer rule (`ThroughputRule.get_quality_delay`): no variant whose segment
        /// is larger than `s * (buffer - latency) * tput`, with `s` starting at 0.9 and multiplied by 0.9
        /// at each choice down to 0.5.
        public var insufficientBufferRule: Bool

        /// The defaults: 0.9, 3 segments, the sliding window, no insufficient-buffer rule.
        public static let `default` = Throughput(safetyFactor: 0.9, window: 3)

        /// Creates parameters.
        public init(safetyFactor: Double, window: Int, estimator: Estimator = .sliding, insufficientBufferRule: Bool = false) {
            self.safetyFactor = safetyFactor
            self.window = window
            self.estimator = estimator
            self.insufficientBufferRule = insufficientBufferRule
        }
    }

    /// Parameters of BOLA.
    public struct Bola: Sendable, Hashable {
        /// Which BOLA.
        public enum Variant: String, Sendable, Hashable, CaseIterable {
            /// BOLA-BASIC: the formula alone, any jump up or down.
            case basic
            /// BOLA-U as Sabre's `Bola` (not `--abr-basic`): never more than one variant above the one the
            /// throughput estimate sustains (`latency + d * bitrate / tput <= d`, no safety factor) when
            /// stepping up, holding the previous variant when that one is already above it; and a buffer
            /// size of at most `max(t / 2, 3) * d`, `t` the segments from the start (or last seek) or to the
            /// end, whichever fewer.
            case u
        }

        /// Buffer size, seconds: the buffer level at which BOLA reaches the top variant (Sabre's
        /// `--max-buffer`, 25 s). Capped by the most the player buffers, its forward-buffer target plus a
        /// segment (a request goes out below the target, so the buffer peaks one segment above it).
        public var bufferTarget: Double
        /// `gamma * p`, the weight of rebuffering against utility (Sabre's default 5).
        public var gammaP: Double
        /// BOLA-U (the default) or BOLA-BASIC.
        public var variant: Variant
        /// The estimator of the up-switch cap (BOLA-U).
        public var estimator: Estimator
        /// Segments averaged by the sliding estimator.
        public var window: Int

        /// The defaults: 25 s, 5, BOLA-U, a sliding window of 3 segments.
        public static let `default` = Bola(bufferTarget: 25, gammaP: 5)

        /// Creates parameters.
        public init(
            bufferTarget: Double, gammaP: Double, variant: Variant = .u, estimator: Estimator = .sliding, window: Int = 3
        ) {
            self.bufferTarget = bufferTarget
            self.gammaP = gammaP
            self.variant = variant
            self.estimator = estimator
            self.window = window
        }
    }

    /// Sabre's `Dynamic.low_buffer_threshold`, seconds: DYNAMIC's switch level both ways.
    public static let dynamicSwitchLevel = 10.0

    /// Sabre's `Dynamic` (its switch level both ways) with the default parameters.
    public static let defaultDynamic = AbrRule.dynamic(
        throughput: .default, bola: .default, switchOn: dynamicSwitchLevel, switchOff: dynamicSwitchLevel)

    /// The rule's name as the command line spells it.
    public var name: String {
        switch self {
        case .fixed: "fixed"
        case .throughput: "throughput"
        case .bola: "bola"
        case .dynamic: "dynamic"
        case .player(let player): player.name
        }
    }
}
