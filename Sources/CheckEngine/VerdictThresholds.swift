import BufprobeOutput

/// The limits a check's verdict holds a stream to, for every front end alike: `check`'s options
/// (`--max-stalls`...), a `serve` module's keys (`max_stalls`...) and `StreamCheck.Options`. Crossing any one
/// makes the verdict `degraded`, and the reason names it (`Verdict.decide`).
///
/// The defaults are `check`'s historical rule: any stall is degraded (`maxStalls` 0), a startup above
/// 3 s is degraded, media received slower than real time is degraded (`minRealtimeFactor` 1), and nothing
/// else is limited. The thresholds are independent: allowing stalls is
/// `maxStalls`' business, so `maxRebufferRatio` alone still degrades on the first stall.
public struct VerdictThresholds: Sendable, Hashable {
    /// The most stalls that still pass (0: any stall is degraded).
    public var maxStalls: Int
    /// The most seconds stalled in total that still pass; `nil`: no limit.
    public var maxStallTime: Double?
    /// The highest rebuffer ratio (stall time over stall plus played time, 0 to 1) that still passes;
    /// `nil`: no limit.
    public var maxRebufferRatio: Double?
    /// The longest startup delay (opening included) that still passes, seconds.
    public var maxStartup: Double
    /// Live streams whose media maps to a clock: the highest latency to the live edge while playing
    /// (`live_latency.max`) that still passes, seconds; `nil`: no limit.
    public var maxLatency: Double?
    /// Live streams whose media maps to a clock: the most the latency may grow over the check
    /// (`live_latency.drift`) and still pass, seconds; `nil`: no limit.
    public var maxDrift: Double?
    /// The lowest real-time factor (media seconds received per wall second, over the check) that still
    /// passes: 1 by default (slower than real time is degraded), 0 for no limit. A live stream whose latency
    /// to the live edge is measured has no real-time factor (it arrives as fast as it is made; `maxDrift`
    /// is its rule).
    public var minRealtimeFactor: Double
    /// How far above its declared HLS `BANDWIDTH` (or DASH `@bandwidth`) the played variant's 1 s peak, and
    /// with `--all-variants` each variant's peak segment rate, may be and still pass, as a fraction (0.1:
    /// 10%, the HLS authoring specification's allowance, by default); `nil`: no limit.
    public var maxPeakOverBandwidth: Double?
    /// The longest hole in the received media (a gap between loaded ranges, after ranges closer than
    /// 0.1 s are merged) that still passes, seconds: 0 by default (any hole is degraded); `nil`: no limit.
    public var maxHole: Double?
    /// The most origin faults that still pass: each variant playlist that fails to load, resource refused
    /// or silent, live HLS playlist that stopped updating (1.5x its target duration), LL-HLS server that
    /// ignores blocking reloads, `--all-variants` variant unlike its declaration, and live DASH segment listed
    /// but not served counts one. 0 by default (any fault is degraded); `nil`: no limit.
    public var maxOriginFaults: Int?

    /// Thresholds with `check`'s defaults for every value not given.
    public init(
        maxStalls: Int = 0, maxStallTime: Double? = nil, maxRebufferRatio: Double? = nil, maxStartup: Double = 3,
        maxLatency: Double? = nil, maxDrift: Double? = nil, minRealtimeFactor: Double = 1,
        maxPeakOverBandwidth: Double? = 0.1, maxHole: Double? = 0, maxOriginFaults: Int? = 0
    ) {
        self.maxStalls = maxStalls
        self.maxStallTime = maxStallTime
        self.maxRebufferRatio = maxRebufferRatio
        self.maxStartup = maxStartup
        self.maxLatency = maxLatency
        self.maxDrift = maxDrift
        self.minRealtimeFactor = minRealtimeFactor
        self.maxPeakOverBandwidth = maxPeakOverBandwidth
        self.maxHole = maxHole
        self.maxOriginFaults = maxOriginFaults
    }

    /// `check`'s defaults: no stall, a start within 3 s, media received at least as fast as real time.
    public static let `default` = VerdictThresholds()

    /// One threshold: its key in JSON, metrics and a `serve` module, and its `check` option.
    public enum Name: String, Sendable, CaseIterable {
        /// `max_stalls`, `--max-stalls`.
        case maxStalls = "max_stalls"
        /// `max_stall_time`, `--max-stall-time`.
        case maxStallTime = "max_stall_time"
        /// `max_rebuffer_ratio`, `--max-rebuffer-ratio`.
        case maxRebufferRatio = "max_rebuffer_ratio"
        /// `max_startup`, `--max-startup`.
        case maxStartup = "max_startup"
        /// `max_latency`, `--max-latency`.
        case maxLatency = "max_latency"
        /// `max_drift`, `--max-drift`.
        case maxDrift = "max_drift"
        /// `min_realtime_factor`, `--min-realtime-factor`.
        case minRealtimeFactor = "min_realtime_factor"
        /// `max_peak_over_bandwidth`, `--max-peak-over-bandwidth`.
        case maxPeakOverBandwidth = "max_peak_over_bandwidth"
        /// `max_hole`, `--max-hole`.
        case maxHole = "max_hole"
        /// `max_origin_faults`, `--max-origin-faults`.
        case maxOriginFaults = "max_origin_faults"

        /// The `check` option: `--max-stalls`.
        public var option: String { "--" + rawValue.split(separator: "_").joined(separator: "-") }
    }

    /// The threshold `name` as a number (a count, a ratio or seconds); `nil` when it is not limited.
    public subscript(name: Name) -> Double? {
        switch name {
        case .maxStalls: Double(maxStalls)
        case .maxStallTime: maxStallTime
        case .maxRebufferRatio: maxRebufferRatio
        case .maxStartup: maxStartup
        case .maxLatency: maxLatency
        case .maxDrift: maxDrift
        case .minRealtimeFactor: minRealtimeFactor == 0 ? nil : minRealtimeFactor
        case .maxPeakOverBandwidth: maxPeakOverBandwidth
        case .maxHole: maxHole
        case .maxOriginFaults: maxOriginFaults.map(Double.init)
        }
    }

    /// Sets each threshold of `values`, by name (a `serve` module's keys); the others keep theirs.
    package mutating func set(_ values: [Name: Double]) {
        for (name, value) in values {
            switch name {
            case .maxStalls: maxStalls = value.isFinite ? Int(value) : 0
            case .maxStallTime: maxStallTime = value
            case .maxRebufferRatio: maxRebufferRatio = value
            case .maxStartup: maxStartup = value
            case .maxLatency: maxLatency = value
            case .maxDrift: maxDrift = value
            case .minRealtimeFactor: minRealtimeFactor = value
            // Infinite: `none`, as a module says no limit.
            case .maxPeakOverBandwidth: maxPeakOverBandwidth = value.isInfinite ? nil : value
            case .maxHole: maxHole = value.isInfinite ? nil : value
            // A count no Int holds (`none` is infinite) is no limit, never a trap.
            case .maxOriginFaults: maxOriginFaults = Int(exactly: value.rounded(.towardZero))
            }
        }
    }

    /// A threshold that cannot be used: one sentence naming its option and the value.
    public struct InvalidValue: Error, Sendable, Hashable, CustomStringConvertible {
        /// The sentence.
        public var description: String
    }

    /// Refuses a threshold that no measurement can be compared with: negative, not a number, infinite,
    /// or a rebuffer ratio above 1. Every front end calls it once, where the values come in.
    public func validate() throws(InvalidValue) {
        for name in Name.allCases {
            guard let value = self[name] else { continue }
            guard value.isFinite else { throw InvalidValue(description: "\(name.option) must be a number, got \(value).") }
            guard value >= 0 else { throw InvalidValue(description: "\(name.option) must not be negative, got \(Self.text(value, of: name)).") }
        }
        if let ratio = maxRebufferRatio, ratio > 1 {
            throw InvalidValue(description: "\(Name.maxRebufferRatio.option) is a fraction from 0 to 1 (0.05) or a percentage (5%), got \(ratio).")
        }
    }

    /// Parses a stall count (`--max-stalls`, `max_stalls`): a whole number, 0 or more. The sentence does
    /// not name the option: the command line and the configuration file put their own name in front.
    public static func count(parsing text: String) throws(InvalidValue) -> Int {
        try count(parsing: text, of: "stalls")
    }

    /// Parses a count of `what` (`stalls`, `origin faults`): a whole number, 0 or more.
    package static func count(parsing text: String, of what: String) throws(InvalidValue) -> Int {
        guard let count = Int(text.trimmedSpaces), count >= 0 else {
            throw InvalidValue(description: "'\(text.prefix(64))' is not a number of \(what); expected a whole number, 0 or more")
        }
        return count
    }

    /// Parses an origin-fault count (`--max-origin-faults`, `max_origin_faults`): a whole number, 0 or
    /// more, or `none` for no limit (returned as `nil`).
    public static func faults(parsing text: String) throws(InvalidValue) -> Int? {
        text.trimmedSpaces == "none" ? nil : try count(parsing: text, of: "origin faults")
    }

    /// Parses a rebuffer ratio (`--max-rebuffer-ratio`, `max_rebuffer_ratio`): a fraction (`0.05`) or a
    /// percentage (`5%`), from 0 to 1 (100%).
    public static func ratio(parsing text: String) throws(InvalidValue) -> Double {
        let trimmed = text.trimmedSpaces
        let percent = trimmed.hasSuffix("%")
        let number = percent ? String(trimmed.dropLast()).trimmedSpaces : trimmed
        guard let value = Double(number), value.isFinite, value >= 0, value <= (percent ? 100 : 1) else {
            throw InvalidValue(description: "'\(text.prefix(64))' is not a rebuffer ratio; expected a fraction from 0 to 1 (0.05) or a percentage (5%)")
        }
        return percent ? value / 100 : value
    }

    /// Parses a real-time factor (`--min-realtime-factor`, `min_realtime_factor`): a number, 0 or more,
    /// with or without a trailing `x` (`0.9`, `0.9x`); 0 is no limit.
    public static func factor(parsing text: String) throws(InvalidValue) -> Double {
        let trimmed = text.trimmedSpaces
        let number = trimmed.hasSuffix("x") ? String(trimmed.dropLast()) : trimmed
        guard let value = Double(number), value.isFinite, value >= 0 else {
            throw InvalidValue(description: "'\(text.prefix(64))' is not a real-time factor; expected a number, 0 or more (0.9: media may arrive at 90% of real time; 0: no limit)")
        }
        return value
    }

    /// Parses a tolerance over the declared bandwidth (`--max-peak-over-bandwidth`, `max_peak_over_bandwidth`):
    /// a fraction (`0.25`) or a percentage (`25%`), 0 or more, or `none` for no limit (returned as infinity,
    /// which `set` and `ThresholdOptions` take as no limit).
    public static func excess(parsing text: String) throws(InvalidValue) -> Double {
        let trimmed = text.trimmedSpaces
        if trimmed == "none" { return .infinity }
        let percent = trimmed.hasSuffix("%")
        let number = percent ? String(trimmed.dropLast()).trimmedSpaces : trimmed
        guard let value = Double(number), value.isFinite, value >= 0 else {
            throw InvalidValue(description: "'\(text.prefix(64))' is not a tolerance; expected a fraction (0.25), a percentage (25%) or none")
        }
        return percent ? value / 100 : value
    }

    /// `value` of the threshold `name` as people read it: `1`, `5%`, `2.500 s`, `0.9`.
    package static func text(_ value: Double, of name: Name) -> String {
        switch name {
        // A count from a decoded document may be any Double: a whole one reads as a count, anything else
        // as the number it is, never a trap.
        case .maxStalls, .maxOriginFaults: Int(exactly: value).map(String.init) ?? String(value)
        case .maxRebufferRatio, .maxPeakOverBandwidth: percent(value)
        case .minRealtimeFactor: factor(value)
        default: TextFormat.seconds(value)
        }
    }

    /// `name` with its value, as a verdict names a threshold crossed: `--max-stalls 1`, `--max-rebuffer-ratio 5%`.
    package func named(_ name: Name) -> String {
        guard let value = self[name] else { return name.option }
        return "\(name.option) \(Self.text(value, of: name))"
    }

    /// A factor with at most two decimals and no trailing zeros: `1`, `0.9`, `0.75`.
    package static func factor(_ value: Double) -> String {
        var text = String(format: "%.2f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// A ratio as a percentage with at most two decimals: `5%`, `0.25%`, `12.34%`.
    package static func percent(_ ratio: Double) -> String { TextFormat.percent(ratio) }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmedSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
