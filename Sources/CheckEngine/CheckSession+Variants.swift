import Foundation
import MediaIO
import PlaybackModel
import Synchronization

// The parts of a check's report that need more than the player: the variants validated with
// `--all-variants`, and the sentences for resources the input led to that were refused or skipped.
extension CheckSession {
    /// `--all-variants`: validates every variant of an HLS master (`VariantProber`) or every video
    /// representation of a DASH manifest (`DASHVariantProber`) once, adding the checks and one warning per
    /// problem. Not for inputs FFmpeg read as something else (a progressive file is
    /// never downloaded again as a playlist), nor after Ctrl-C.
    func addVariantChecks(to report: inout CheckReport) {
        guard settings.allVariants, report.variantChecks == nil, !cancelled.load(ordering: .acquiring) else { return }
        let container = report.format.map(ContainerFormat.init(demuxer:)) ?? ContainerFormat(namedBy: source)
        let isHLS = container == .hls
        if container == .dash {
            let prober = DASHVariantProber(
                source: source, options: settings.formatOptions, timeout: settings.timeout,
                segments: settings.allVariantsSegments, root: validation, pacer: interrupter, budget: settings.allVariantsBudget)
            let outcome = prober.run()
            report.variantChecks = outcome.checks
            report.warnings += outcome.warnings + outcome.checks.flatMap { $0.problems.map(\.message) }
            return
        }
        guard isHLS else {
            report.variantChecks = []
            report.warnings.append("--all-variants: \(source) is not an HLS master playlist or a DASH manifest, so no variant was validated.")
            return
        }
        let prober = VariantProber(
            source: source, options: settings.formatOptions, timeout: settings.timeout,
            segments: settings.allVariantsSegments, root: validation, pacer: interrupter,
            budget: settings.allVariantsBudget)
        let outcome = prober.run()
        report.variantChecks = outcome.checks
        report.warnings += outcome.warnings + outcome.checks.flatMap { $0.problems.map(\.message) }
    }

    /// The sentence for a stop that was not a timeout or Ctrl-C (a request loop, an oversized playlist).
    func resourceLimitSentence(opening: Bool) -> String? {
        guard let reason = interrupter.reason else {
            return opening ? interrupter.skipped.first(where: { $0.kind != .failed })?.openFailure(for: source) : nil
        }
        guard reason != .timeout, reason != .cancelled else { return nil }
        return reason.sentence(for: source, timeout: settings.timeout, opening: opening)
    }

    /// Resources the input led to that were refused or skipped, as warnings.
    var skippedWarnings: [String] {
        interrupter.skipped.filter { $0.kind != .failed }.map { $0.sentence(for: source) }
    }

    /// `report` failed for `reason`: its warnings, `--all-variants` and refused requests still added.
    func failing(_ report: CheckReport, _ reason: String) -> CheckReport {
        var report = report
        report.verdict = .fail
        report.reason = reason
        if report.warnings.isEmpty { report.warnings = skippedWarnings + lines.problems }
        // A master FFmpeg could not play may still have variants worth naming (the one that broke it).
        addVariantChecks(to: &report)
        // A live DASH input that failed still says what its requests met (missing segments, early ones).
        if report.dashLive == nil { addDASHLive(to: &report) }
        report.refusedRequests = CheckReport.RefusedRequests(interrupter.refusedRequests)
        return report
    }
}
