/// The outcome of one check (`bufprobe check`, `serve`'s probe, `StreamCheck.Report.verdict`), and the exit
/// code it maps to (documented in `--help` and the README).
public enum CheckVerdict: String, Sendable, Codable, Comparable {
    /// Started within `--max-startup`, within every other threshold (by default: never stalled, received
    /// at least as fast as real time, `--min-realtime-factor 1`).
    case pass
    /// Played, but crossed a threshold (`VerdictThresholds`: stalled, started slowly, received slower than
    /// `--min-realtime-factor`...), peaked above its declared
    /// HLS bandwidth by more than `--max-peak-over-bandwidth` (10%), has a hole in its media (`--max-hole`), or has more origin faults than
    /// `--max-origin-faults` (0: a variant playlist that fails to load, a live playlist that stopped updating...).
    case degraded
    /// Could not open, HTTP error, timeout, no playable stream, or the stream ended early.
    case fail

    /// 0, 1 or 2.
    package var exitCode: Int32 {
        switch self {
        case .pass: 0
        case .degraded: 1
        case .fail: 2
        }
    }

    /// Severity order: pass < degraded < fail.
    public static func < (lhs: CheckVerdict, rhs: CheckVerdict) -> Bool { lhs.exitCode < rhs.exitCode }
}
