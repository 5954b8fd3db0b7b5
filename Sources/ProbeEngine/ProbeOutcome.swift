/// How reading one input ended, and the exit code it maps to (documented in `--help` and the README).
package enum ProbeOutcome: Int32, Sendable, Comparable {
    /// Read to the end.
    case complete = 0
    /// Could not be opened, or is not media: nothing was read.
    case unreadable = 2
    /// Reading started but stopped early (truncated or damaged).
    case incomplete = 3

    /// Severity order for "the exit code reflects the worst": unreadable > incomplete > complete.
    private var severity: Int {
        switch self {
        case .complete: 0
        case .incomplete: 1
        case .unreadable: 2
        }
    }

    package static func < (lhs: ProbeOutcome, rhs: ProbeOutcome) -> Bool { lhs.severity < rhs.severity }
}
