public import ArgumentParser
public import PlaybackModel
import CheckEngine

/// `simulate`'s adaptive-bit-rate options: the rule, its parameters (each with its source's default) and
/// the QoE weights.
public struct AbrOptions: ParsableArguments {
    /// The rules `--abr` accepts.
    public enum RuleName: String, RawValueArgument, Sendable {
        /// `--variant`'s variant throughout.
        case fixed
        /// Throughput estimate times a safety factor.
        case throughput
        /// BOLA-BASIC, buffer-based.
        case bola
        /// Throughput below the switch level, BOLA above when it picks at least as high (Sabre's `Dynamic`).
        case dynamic
    }

    /// `--abr`.
    @Option(
        help: ArgumentHelp(
            "For a master playlist or DASH manifest, how the player picks each segment's variant: fixed (--variant, the default), throughput, bola or dynamic.",
            valueName: "rule"))
    public var abr: RuleName?

    /// `--abr-safety`.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "throughput/dynamic: fraction of the throughput estimate a variant may use (default 0.9, dash.js's bandwidthSafetyFactor).",
            valueName: "fraction"))
    public var abrSafety: Double?

    /// `--abr-window`.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "throughput/dynamic: segments averaged into the throughput estimate (default 3, Sabre's sliding window).",
            valueName: "n"))
    public var abrWindow: Int?

    /// `--bola-target`.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "bola/dynamic: BOLA's buffer size, the level at which it reaches the top variant (default 25s, Sabre's --max-buffer; at most --max-buffer plus a segment, the most the player holds).",
            valueName: "duration"),
        transform: Seconds.argument)
    public var bolaTarget: Seconds?

    /// The estimators `--abr-estimator` accepts.
    public enum EstimatorName: String, RawValueArgument, Sendable {
        /// The mean of the last `--abr-window` segments (Sabre's `SlidingWindow`).
        case sliding
        /// Sabre's `Ewma`, half-lives 3 s and 8 s, the lower estimate.
        case ewma
    }

    /// `--abr-estimator`.
    @Option(
        help: ArgumentHelp(
            "throughput/bola/dynamic: how past segments' throughput and latency become an estimate: sliding (the mean of the last --abr-window segments, Sabre's SlidingWindow; the default) or ewma (Sabre's Ewma: half-lives 3s and 8s of transfer time, the lower throughput and higher latency of the two).",
            valueName: "estimator"))
    public var abrEstimator: EstimatorName?

    /// `--abr-insufficient-buffer`.
    @Flag(
        help: ArgumentHelp(
            "throughput/dynamic: Sabre's insufficient-buffer rule (ThroughputRule.get_quality_delay): no variant whose segment exceeds s x (buffer - latency) x throughput, s from 0.9 shrinking by 0.9 per choice to 0.5."))
    public var abrInsufficientBuffer = false

    /// `--bola-variant`.
    @Option(
        help: ArgumentHelp(
            "bola/dynamic: u (the default; Sabre's Bola: never more than one variant above what the throughput sustains when stepping up, a smaller buffer size near the start and end) or basic (BOLA-BASIC, the formula alone; Sabre's --abr-basic).",
            valueName: "variant"),
        transform: { text in
            guard let variant = AbrRule.Bola.Variant(rawValue: text) else {
                throw ValidationError("--bola-variant must be u or basic.")
            }
            return variant
        })
    public var bolaVariant: AbrRule.Bola.Variant?

    /// `--bola-gp`.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("bola/dynamic: BOLA's gamma*p, the weight of rebuffering (default 5, Sabre's).", valueName: "value"))
    public var bolaGp: Double?

    /// `--dynamic-switch`.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "dynamic: the buffer level of Sabre's Dynamic (default 10s, its low_buffer_threshold): above it BOLA takes over when it picks at least the throughput rule's variant, below it the throughput rule takes back when it picks more than BOLA.",
            valueName: "duration"),
        transform: Seconds.argument)
    public var dynamicSwitch: Seconds?

    /// `--abandon`.
    @Flag(
        help: ArgumentHelp(
            "throughput/bola/dynamic: drop a segment that will not arrive before the buffer runs dry and fetch it again at a lower variant (checked every 0.5 s of its download)."))
    public var abandon = false

    /// `--qoe-switch-weight`.

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("QoE weight of switching, lambda (default 1, Yin et al. 2015).", valueName: "value"))
    public var qoeSwitchWeight: Double?

    /// `--qoe-stall-weight`.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "QoE weight of a stalled second, mu, in kbit/s (default the top variant's kbit/s, Yin et al. 2015).",
            valueName: "value"))
    public var qoeStallWeight: Double?

    /// Creates the options with nothing given.
    public init() {}

    /// Rejects parameters given without `--abr`: only `--abr-safety` and the QoE weights apply to a
    /// player's own model (`hasPlayerModel`, `--player` without `--abr`).
    func validateRule(hasPlayerModel: Bool) throws {
        guard abr == nil else { return }
        if hasPlayerModel {
            if abrWindow != nil || abrEstimator != nil || abrInsufficientBuffer || bolaVariant != nil || bolaTarget != nil
                || bolaGp != nil || dynamicSwitch != nil || abandon
            {
                throw ValidationError(
                    "--player's own ABR takes --abr-safety and the QoE weights; the other ABR options need --abr RULE (which replaces the player's ABR).")
            }
        } else if anyParameter {
            throw ValidationError("the ABR and QoE options need --abr RULE.")
        }
    }

    /// Whether any parameter was given (they need `--abr`).
    var anyParameter: Bool {
        abrSafety != nil || abrWindow != nil || abrEstimator != nil || abrInsufficientBuffer || bolaVariant != nil
            || bolaTarget != nil || bolaGp != nil || dynamicSwitch != nil
            || qoeSwitchWeight != nil || qoeStallWeight != nil || abandon
    }

    /// Rejects values no rule can use.
    public func validate() throws {
        if let abrSafety, !(abrSafety > 0 && abrSafety <= 1) { throw ValidationError("--abr-safety must be above 0 and at most 1.") }
        if let abrWindow, !(1...1000).contains(abrWindow) { throw ValidationError("--abr-window must be between 1 and 1000 segments.") }
        if let bolaTarget, !(bolaTarget.value > 0) { throw ValidationError("--bola-target must be greater than 0.") }
        if let bolaGp, !(bolaGp > 0 && bolaGp.isFinite) { throw ValidationError("--bola-gp must be greater than 0.") }
        if let dynamicSwitch, !(dynamicSwitch.value > 0) { throw ValidationError("--dynamic-switch must be greater than 0.") }
        if let qoeSwitchWeight, !(qoeSwitchWeight >= 0 && qoeSwitchWeight.isFinite) {
            throw ValidationError("--qoe-switch-weight must be 0 or more.")
        }
        if let qoeStallWeight, !(qoeStallWeight >= 0 && qoeStallWeight.isFinite) {
            throw ValidationError("--qoe-stall-weight must be 0 or more.")
        }
        if abrInsufficientBuffer, abr == .bola {
            throw ValidationError("--abr-insufficient-buffer is a throughput rule's option (throughput or dynamic), not bola's.")
        }
        if bolaVariant != nil, abr == .throughput {
            throw ValidationError("--bola-variant is a BOLA option (bola or dynamic), not throughput's.")
        }
        if abandon, abr == .fixed { throw ValidationError("--abandon needs an adaptive rule (throughput, bola or dynamic), not --abr fixed.") }
    }

    /// The estimator chosen.
    var estimator: AbrRule.Estimator {
        switch abrEstimator ?? .sliding {
        case .sliding: .sliding
        case .ewma: .sabreEwma
        }
    }

    /// The throughput rule's parameters.
    var throughput: AbrRule.Throughput {
        AbrRule.Throughput(
            safetyFactor: abrSafety ?? AbrRule.Throughput.default.safetyFactor,
            window: abrWindow ?? AbrRule.Throughput.default.window, estimator: estimator,
            insufficientBufferRule: abrInsufficientBuffer)
    }

    /// BOLA's parameters.
    var bola: AbrRule.Bola {
        AbrRule.Bola(
            bufferTarget: bolaTarget?.value ?? AbrRule.Bola.default.bufferTarget,
            gammaP: bolaGp ?? AbrRule.Bola.default.gammaP, variant: bolaVariant ?? .u, estimator: estimator,
            window: abrWindow ?? AbrRule.Throughput.default.window)
    }

    /// The rule `--abr` names, `nil` without it; `fixed`'s variant is a placeholder the plan replaces with
    /// `--variant`'s (`SimulationOptions.abr`).
    var rule: AbrRule? {
        guard let abr else { return nil }
        switch abr {
        case .fixed: return .fixed(variant: 0)
        case .throughput: return .throughput(throughput)
        case .bola: return .bola(bola)
        case .dynamic:
            let level = dynamicSwitch?.value ?? AbrRule.dynamicSwitchLevel
            return .dynamic(throughput: throughput, bola: bola, switchOn: level, switchOff: level)
        }
    }
}
