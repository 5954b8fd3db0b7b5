public import ArgumentParser
public import CheckEngine
public import PlaybackModel

/// `check`'s verdict thresholds: how long a startup, how many stalls, how much stall time, which rebuffer
/// ratio, which real-time factor and, for live streams, which latency and drift still pass
/// (`VerdictThresholds`). Each option left out keeps the default: 3 s to start, no stall allowed, no slower
/// than real time, the others not limited.
public struct ThresholdOptions: ParsableArguments {
    /// `--max-startup`.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Longest startup delay (opening included) that still passes (default 3s).", valueName: "duration"),
        transform: Seconds.argument)
    public var maxStartup = Seconds(VerdictThresholds.default.maxStartup)

    /// `--max-stalls`.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The most stalls that still pass (default 0: any stall is degraded).", valueName: "N"),
        transform: { try VerdictThresholds.count(parsing: $0) })
    public var maxStalls: Int?

    /// `--max-stall-time`.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The most time stalled in total that still passes (default: not limited).", valueName: "duration"),
        transform: Seconds.argument)
    public var maxStallTime: Seconds?

    /// `--max-rebuffer-ratio`.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The highest rebuffer ratio (stall time over stall plus played time) that still passes, a fraction (0.05) or a percentage (5%) (default: not limited).",
            valueName: "ratio"),
        transform: { try VerdictThresholds.ratio(parsing: $0) })
    public var maxRebufferRatio: Double?

    /// `--max-latency`.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Live streams with a clock (EXT-X-PROGRAM-DATE-TIME, DASH): the highest latency to the live edge while playing that still passes (default: not limited).",
            valueName: "duration"),
        transform: Seconds.argument)
    public var maxLatency: Seconds?

    /// `--max-drift`.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Live streams with a clock: the most the latency may grow from start to end and still pass (default: not limited).",
            valueName: "duration"),
        transform: Seconds.argument)
    public var maxDrift: Seconds?

    /// `--min-realtime-factor`.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The lowest real-time factor (media seconds received per wall second) that still passes (default 1: slower than real time is degraded; 0: no limit).",
            valueName: "factor"),
        transform: { try VerdictThresholds.factor(parsing: $0) })
    public var minRealtimeFactor: Double?

    /// `--max-peak-over-bandwidth`.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "How far above its declared HLS BANDWIDTH (DASH @bandwidth) a variant may peak and still pass, a fraction (0.25) or a percentage (25%), or none (default 10%, the HLS authoring rule).",
            valueName: "tolerance"),
        transform: { try VerdictThresholds.excess(parsing: $0) })
    public var maxPeakOverBandwidth: Double?

    /// `--max-hole`.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The longest hole in the received media that still passes, or none (default 0: any hole is degraded).",
            valueName: "duration"),
        transform: { $0.trimmingCharacters(in: .whitespaces) == "none" ? Seconds(.infinity) : try Seconds.argument($0) })
    public var maxHole: Seconds?

    /// `--max-origin-faults`.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The most origin faults that still pass (a variant playlist or resource that fails, a stale live playlist, ignored LL-HLS blocking reloads, an --all-variants mismatch, a live DASH segment not served), or none (default 0: any fault is degraded).",
            valueName: "count"),
        transform: { value in
            guard let count = try VerdictThresholds.faults(parsing: value) else { return -1 }
            return count
        })
    public var maxOriginFaults: Int?

    /// Creates the options with nothing given.
    public init() {}

    /// The thresholds with these options over `base`.
    public func thresholds(over base: VerdictThresholds = .default) -> VerdictThresholds {
        var thresholds = base
        thresholds.maxStartup = maxStartup.value
        if let maxStalls { thresholds.maxStalls = maxStalls }
        if let maxStallTime { thresholds.maxStallTime = maxStallTime.value }
        if let maxRebufferRatio { thresholds.maxRebufferRatio = maxRebufferRatio }
        if let maxLatency { thresholds.maxLatency = maxLatency.value }
        if let maxDrift { thresholds.maxDrift = maxDrift.value }
        if let minRealtimeFactor { thresholds.minRealtimeFactor = minRealtimeFactor }
        if let maxPeakOverBandwidth { thresholds.set([.maxPeakOverBandwidth: maxPeakOverBandwidth]) }
        if let maxHole { thresholds.set([.maxHole: maxHole.value]) }
        // -1: `none` on the command line (the option's own optional says "not given").
        if let maxOriginFaults { thresholds.maxOriginFaults = maxOriginFaults < 0 ? nil : maxOriginFaults }
        return thresholds
    }
}
