import BufprobeOutput

/// The one rule for a measured bit rate against a declared HLS `BANDWIDTH` (or `AVERAGE-BANDWIDTH`): more
/// than 10% above it is a problem by default (Apple's HLS authoring specification allows a measured peak up
/// to 10% over the declared one); `check --max-peak-over-bandwidth` (`VerdictThresholds.maxPeakOverBandwidth`)
/// sets another tolerance or none. The played variant's 1 s peak (`Verdict.decide`) and every variant's
/// peak segment bit rate (`check --all-variants`) are judged by it, and `validate`'s apple:1.26/1.27 in both
/// directions.
package enum BandwidthRule {
    /// How far above the declared rate a measured one may be by default: 10%.
    package static let tolerance = 0.10

    /// The default tolerance as the sentences print it: "10%".
    package static var toleranceText: String { text(tolerance) }

    /// A tolerance as the sentences print it: "10%", "25%".
    package static func text(_ tolerance: Double) -> String { TextFormat.percent(tolerance) }

    /// Whether `measured` is more than `tolerance` above `declared` (both bits per second); never with no
    /// tolerance (`nil`: not limited).
    package static func exceeds(measured: Double, declared: Double, tolerance: Double? = BandwidthRule.tolerance) -> Bool {
        guard let tolerance else { return false }
        return measured > declared * (1 + tolerance)
    }

    /// Whether `measured` is more than `tolerance` away from `declared`, above or below (both bits per
    /// second): the "within 10 %" of `validate`'s apple:1.26 and apple:1.27.
    package static func differs(measured: Double, declared: Double) -> Bool {
        abs(measured - declared) > declared * tolerance
    }
}
