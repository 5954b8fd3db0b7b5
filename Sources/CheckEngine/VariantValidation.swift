package import MediaIO
import InputReading

/// What an `--all-variants` validation of either kind (`VariantProber` for HLS, `DASHVariantProber` for
/// DASH) works with: the input, its request options, `--timeout`, the segments sized per variant, the
/// interrupters it answers to, and its time budget, with the one way it makes a request's deadline.
package struct VariantValidation: Sendable {
    /// The input as given (named in sentences).
    package let source: String
    /// Request options (`headers`, `user_agent`).
    package let options: [String: String]
    /// `--timeout`, seconds, for each request.
    package let timeout: Double
    /// Segments sized per variant.
    package let segments: Int
    /// Cancelled with the check (Ctrl-C): every request of the validation stops.
    package let root: Interrupter
    /// The check's interrupter, whose request pace per origin and policy the validation shares.
    package let pacer: Interrupter
    /// The time the whole validation may take (`CheckSettings.allVariantsBudget`).
    let budget: ValidationBudget
    /// How far above its declared `BANDWIDTH` a variant may peak (`--max-peak-over-bandwidth`); `nil`: any.
    package let bandwidthTolerance: Double?

    /// A validation of `source` within `budget` seconds in all when given, read on `clock`.
    init(
        source: String, options: [String: String], timeout: Double, segments: Int, root: Interrupter, pacer: Interrupter,
        budget: Double?, clock: any CheckClock, bandwidthTolerance: Double? = BandwidthRule.tolerance
    ) {
        self.source = source
        self.options = options
        self.timeout = timeout
        self.segments = segments
        self.root = root
        self.pacer = pacer
        self.budget = ValidationBudget(seconds: budget, clock: clock)
        self.bandwidthTolerance = bandwidthTolerance
    }

    /// An interrupter for one request: its own deadlines (variants run side by side), the whole request
    /// (open and every read) bounded by `--timeout`, the check's pace, and the validation's cancellation.
    /// Within the budget, a request is cut when the budget ends (its waits keep `--timeout`'s rules, so
    /// a request cut short is known by the budget having run out).
    func request() -> VariantProber.RequestDeadline {
        budget.request(for: source, timeout: timeout, root: root, pacer: pacer)
    }
}

/// A prober of variants: what it works with is its `validation`, read through the same names.
protocol ValidatesVariants {
    /// The input, options, timeout, segments, interrupters and budget.
    var validation: VariantValidation { get }
}

extension ValidatesVariants {
    var source: String { validation.source }
    var options: [String: String] { validation.options }
    var timeout: Double { validation.timeout }
    var segments: Int { validation.segments }
    var root: Interrupter { validation.root }
    var pacer: Interrupter { validation.pacer }
    var budget: ValidationBudget { validation.budget }
    func request() -> VariantProber.RequestDeadline { validation.request() }
}
