/// How a simulated player picks the variant of the next segment of an HLS ladder (adaptive bit rate).
///
/// A rule is plain data; `AbrController` runs it. Every rule sees only what a player sees: the variants'
/// declared bit rates (ascending), the buffer ahead of the playhead when the request goes out, and the
/// throughput of the segments downloaded so far. The first segment goes out at the lowest variant for the
/// adaptive rules (nothing has been measured yet), as Sabre does.
public enum AbrRule: Sendable, Hashable {
    /// Always the same variant (an index into the ascending ladder): today's `--variant`.
    case fixed(variant: Int)
    /// Throughput-based: the highest variant whose bit rate is at most `safetyFactor` times the mean
    /// throughput of the last `window` segments (dash.js ThroughputRule's safety factor 0.9; Sabre's
    /// sliding window of 3 segments).
    case throughput(Throughput)
    /// BOLA-BASIC (Spiteri, Urgaonkar, Sitaraman, "BOLA: Near-optimal bitrate adaptation for online
    /// videos", INFOCOM 2016), as in Sabre's `Bola`: utilities `ln(bitrate / lowest)`, `V` and `gamma*p`
    /// from a buffer target; the variant maximising `(V * (utility + gp) - buffer) / bitrate`.
    case bola(Bola)
    /// dash.js's DYNAMIC strategy: `throughput` while the buffer is low, `bola` once it reaches `switchOn`
    /// seconds, back to `throughput` when it falls below `switchOff` (dash.js: its stable buffer time,
    /// 12 s, and half of it).
    case dynamic(throughput: Throughput, bola: Bola, switchOn: Double, switchOff: Double)

    /// Parameters of the throughput rule.
    public struct Throughput: Sendable, Hashable {
        /// Fraction of the estimate a variant may use (dash.js `bandwidthSafetyFactor`, 0.9).
        public var safetyFactor: Double
        /// Segments averaged into the estimate (Sabre's sliding window, 3).
        public var window: Int

        /// The defaults: 0.9 and 3 segments.
        public static let `default` = Throughput(safetyFactor: 0.9, window: 3)

        /// Creates parameters.
        public init(safetyFactor: Double, window: Int) {
            self.safetyFactor = safetyFactor
            self.window = window
        }
    }

    /// Parameters of BOLA-BASIC.
    public struct Bola: Sendable, Hashable {
        /// Buffer level, seconds, at which BOLA reaches the top variant (Sabre's buffer size, 25 s); capped
        /// by the player's forward-buffer target, above which nothing is fetched.
        public var bufferTarget: Double
        /// `gamma * p`, the weight of rebuffering against utility (Sabre's default 5).
        public var gammaP: Double

        /// The defaults: 25 s and 5.
        public static let `default` = Bola(bufferTarget: 25, gammaP: 5)

        /// Creates parameters.
        public init(bufferTarget: Double, gammaP: Double) {
            self.bufferTarget = bufferTarget
            self.gammaP = gammaP
        }
    }

    /// dash.js DYNAMIC with its thresholds (12 s on, 6 s off) and the default parameters.
    public static let defaultDynamic = AbrRule.dynamic(
        throughput: .default, bola: .default, switchOn: 12, switchOff: 6)

    /// The rule's name as the command line spells it.
    public var name: String {
        switch self {
        case .fixed: "fixed"
        case .throughput: "throughput"
        case .bola: "bola"
        case .dynamic: "dynamic"
        }
    }
}
