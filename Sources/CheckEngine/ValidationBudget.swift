import Foundation
import MediaIO

/// The time an `--all-variants` validation may take in all (`CheckSettings.allVariantsBudget`), on the
/// monotonic clock, and each request's deadline within it: one rule for the HLS validation
/// (`VariantProber`) and the DASH one (`DASHVariantProber`).
struct ValidationBudget: Sendable {
    /// When the whole validation must end, or `nil` without a budget.
    private let end: ContinuousClock.Instant?

    /// A budget of `seconds` from now; none for `nil`.
    init(seconds: Double?) {
        end = seconds.map { ContinuousClock.now + .bounded(seconds: $0) }
    }

    /// Whether there is a budget at all.
    var isBounded: Bool { end != nil }

    /// Seconds left of the budget (`nil` without one).
    var remaining: Double? { end.map { max(0, (ContinuousClock.now.duration(to: $0)).seconds) } }

    /// Whether the budget has run out (or all but the last 50 ms of it: the timer that cuts a request may
    /// fire a moment before the clock reaches the end).
    var isSpent: Bool { remaining.map { $0 <= 0.05 } ?? false }

    /// One request of the validation of `source`: its own interrupter (`timeout` per call, a child of `root`
    /// so that Ctrl-C stops it, spending `pacer`'s pace and following its policy), cut once `timeout` or
    /// what is left of the budget has passed, whichever comes first.
    func request(for source: String, timeout: Double, root: Interrupter, pacer: Interrupter) -> VariantProber.RequestDeadline {
        VariantProber.RequestDeadline(
            Interrupter(
                timeout: .bounded(seconds: timeout), parent: root, input: VariantProber.location(of: source),
                sharingPaceWith: pacer, policy: pacer.policy),
            seconds: max(0, min(timeout, remaining ?? timeout)))
    }
}
