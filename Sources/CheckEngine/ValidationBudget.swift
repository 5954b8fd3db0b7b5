import Foundation
import MediaIO

/// The time an `--all-variants` validation may take in all (`CheckSettings.allVariantsBudget`), on the
/// check's clock (`CheckClock`), and each request's deadline within it: one rule for the HLS validation
/// (`VariantProber`) and the DASH one (`DASHVariantProber`).
struct ValidationBudget: Sendable {
    /// The clock the budget is read on.
    private let clock: any CheckClock
    /// When the whole validation must end on `clock`, or `nil` without a budget.
    private let end: Double?

    /// A budget of `seconds` from now on `clock`; none for `nil`.
    init(seconds: Double?, clock: any CheckClock) {
        self.clock = clock
        end = seconds.map { clock.now() + min(max(0, $0), ResourceLimits.longestDuration) }
    }

    /// Whether there is a budget at all.
    var isBounded: Bool { end != nil }

    /// Seconds left of the budget (`nil` without one).
    var remaining: Double? { end.map { max(0, $0 - clock.now()) } }

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
