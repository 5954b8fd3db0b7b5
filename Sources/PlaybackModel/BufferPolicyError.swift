/// Why a `BufferPolicy` is unusable; its description is one sentence naming the setting and the fix.
public enum BufferPolicyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A policy setting, named as on the command line.
    public enum Setting: String, Sendable, Hashable {
        /// `BufferPolicy.startThreshold`.
        case startThreshold = "start threshold"
        /// `BufferPolicy.resumeThreshold`.
        case resumeThreshold = "resume threshold"
        /// `BufferPolicy.forwardTarget`.
        case forwardTarget = "forward buffer target"
        /// `BufferPolicy.backBuffer`.
        case backBuffer = "back buffer"
        /// The cap of `BufferPolicy.ResumeGrowth.doubling`.
        case resumeCap = "resume threshold cap"
        /// `BufferPolicy.stallLevel`.
        case stallLevel = "stall level"
        /// A value of `BufferPolicy.stallNudge` (its period, minimum ahead, offset or nudge count).
        case stallNudge = "stall nudge"
    }

    /// A setting is negative or NaN.
    case negative(Setting, Double)
    /// A setting that must be finite is infinite.
    case notFinite(Setting)
    /// The resume threshold is below the start threshold.
    case resumeBelowStart(resume: Double, start: Double)
    /// The forward target is below the resume threshold.
    case targetBelowResume(target: Double, resume: Double)
    /// The predictive keep-up horizon is not a positive finite number of seconds.
    case invalidHorizon(Double)
    /// A doubling resume threshold's cap is below the resume threshold (or NaN).
    case capBelowResume(cap: Double, resume: Double)

    /// One sentence naming the broken rule and what to do.
    public var description: String {
        switch self {
        case .negative(let setting, let value):
            "the \(setting.rawValue) is \(value) s; give a number of seconds that is 0 or more."
        case .notFinite(let setting):
            "the \(setting.rawValue) is infinite; give a finite number of seconds."
        case .resumeBelowStart(let resume, let start):
            "the resume threshold (\(resume) s) is below the start threshold (\(start) s); make it at least as large."
        case .targetBelowResume(let target, let resume):
            "the forward buffer target (\(target) s) is below the resume threshold (\(resume) s); make it at least as large."
        case .invalidHorizon(let horizon):
            "the keep-up prediction horizon is \(horizon) s; give a positive finite number of seconds."
        case .capBelowResume(let cap, let resume):
            "the resume threshold cap (\(cap) s) is below the resume threshold (\(resume) s); make it at least as large."
        }
    }
}
