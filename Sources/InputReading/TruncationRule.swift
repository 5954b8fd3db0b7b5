import BufprobeOutput

/// The one rule for media that ends before its container's declared end: more than 0.5 s or 2% of the
/// declared duration missing is a truncation (probe's "looks truncated" warning, check's "ended early"),
/// anything less is rounding between the container's figure and the last packet's. The same margin past
/// the declared end is an overrun (probe's "packets run to" warning).
///
/// One basis for both commands: the declared span (where the container says the media ends, and its
/// declared duration as the base of the 2%), against where the received media ends. Probe states it in
/// media time and check from the playable start; the end moves with the time base, the duration does not.
/// (Check once took its base from the first received packet instead of the declared start: the two differ
/// only by the gap between the container's start and the playable start, a share of milliseconds.)
package enum TruncationRule {
    /// The one warning every command gives for media that stops short of what it declares (probe's
    /// warning, check's fail reason, simulate's warning and report), once `judge` found it truncated:
    /// `source`, the `declared` duration and the duration `read` (each command's own measure: probe's
    /// packets from the container's start, check's and simulate's playable media), with `cause` (a segment
    /// that failed to load) after a colon when one is known.
    package static func sentence(source: String, declared: Double, read: Double, cause: String? = nil) -> String {
        let read = max(0, read)
        return "\(source) stops short of what it declares: \(TextFormat.seconds(declared)) declared, "
            + "\(TextFormat.seconds(read)) read (\(TextFormat.seconds(max(0, declared - read))) missing)"
            + "\(cause.map { ": \($0)" } ?? "")."
    }

    /// The shortest gap that counts, seconds.
    package static let minimum = 0.5
    /// The share of the declared duration that counts.
    package static let fraction = 0.02

    /// What the container declares.
    package struct Declared: Sendable, Equatable {
        /// Where the media ends, seconds, in the caller's time base.
        package var end: Double
        /// The declared duration, seconds: the base of `fraction`.
        package var duration: Double

        /// A span ending at `end` that lasts `duration`.
        package init(end: Double, duration: Double) {
            self.end = end
            self.duration = duration
        }

        /// The container's span: `duration` from `start` (FFmpeg's start time, 0 when unknown).
        package init(start: Double?, duration: Double) {
            self.init(end: (start ?? 0) + duration, duration: duration)
        }
    }

    /// How the received media compares with the declared span.
    package enum Outcome: Sendable, Equatable {
        /// It ends at the declared end, give or take the margin.
        case whole
        /// It ends this many seconds before the declared end, more than the margin.
        case truncated(missing: Double)
        /// It runs this many seconds past the declared end, more than the margin.
        case overrun(by: Double)
    }

    /// The margin for a declared `duration`, seconds.
    package static func margin(forDuration duration: Double) -> Double { max(minimum, duration * fraction) }

    /// Judges media whose received part ends at `receivedEnd` against `declared` (same time base).
    package static func judge(_ declared: Declared, receivedEnd: Double) -> Outcome {
        let missing = declared.end - receivedEnd
        let margin = margin(forDuration: declared.duration)
        if missing > margin { return .truncated(missing: missing) }
        if -missing > margin { return .overrun(by: -missing) }
        return .whole
    }
}
