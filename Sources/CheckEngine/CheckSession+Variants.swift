import Foundation
import MediaIO
import PlaybackModel

// The driver's end of a check: `--all-variants` validated, what the resource gate refused or skipped as
// sentences, and the failures before receiving handed to the machine.
extension CheckSession {
    /// `--all-variants`: validates every variant of an HLS master (`VariantProber`) or every video
    /// representation of a DASH manifest (`DASHVariantProber`) once, and hands the outcome to the machine.
    /// Not for inputs FFmpeg read as something else (a progressive file is never downloaded again as a
    /// playlist), nor after Ctrl-C.
    func validateVariants() {
        let (format, validated, unixAtStart) = machine.withLock { ($0.report.format, $0.report.variantChecks != nil, $0.unixAtStart) }
        guard settings.allVariants, !validated, !cancelled.load(ordering: .acquiring) else { return }
        let container = format.map(ContainerFormat.init(demuxer:)) ?? ContainerFormat(namedBy: source)
        let outcome: VariantProber.Outcome
        switch container {
        case .dash:
            outcome = DASHVariantProber(
                source: source, options: settings.formatOptions, timeout: settings.timeout,
                segments: settings.allVariantsSegments, root: validation, pacer: interrupter, budget: settings.allVariantsBudget,
                clock: clock, unixNow: { [clock, started, unixAtStart] in unixAtStart + clock.now() - started }
            ).run()
        case .hls:
            outcome = VariantProber(
                source: source, options: settings.formatOptions, timeout: settings.timeout,
                segments: settings.allVariantsSegments, root: validation, pacer: interrupter,
                budget: settings.allVariantsBudget, clock: clock
            ).run()
        default:
            deliver(.variantsValidated([], warnings: [
                "--all-variants: \(source) is not an HLS master playlist or a DASH manifest, so no variant was validated."
            ]))
            return
        }
        deliver(.variantsValidated(outcome.checks, warnings: outcome.warnings))
    }

    /// The sentence for a stop that was not a timeout or Ctrl-C (a request loop, an oversized playlist).
    func resourceLimitSentence(opening: Bool) -> String? {
        guard let reason = interrupter.reason else {
            return opening ? interrupter.skipped.first(where: { $0.kind != .failed })?.openFailure(for: source) : nil
        }
        guard reason != .timeout, reason != .cancelled else { return nil }
        return reason.sentence(for: source, timeout: settings.timeout, opening: opening)
    }

    /// What the resource gate refused or skipped by now, as the machine takes it.
    func requests(opening: Bool, bytes: Int64 = 0, lowLatency: LowLatencyPlayback? = nil) -> CheckEvent.Requests {
        var requests = CheckEvent.Requests()
        requests.limit = resourceLimitSentence(opening: opening)
        let skipped = interrupter.skipped.filter { $0.kind != .failed }
        requests.warnings = skipped.map { $0.sentence(for: source) }
        // Failed opens are FFmpeg's to judge (a segment of a variant not played does not count).
        requests.skipped = skipped.map { .init(url: $0.url, why: $0.why) }
        requests.partStalled = lowLatency?.stalledSentence
        requests.cancelled = cancelled.load(ordering: .acquiring)
        requests.bytesReceived = bytes
        return requests
    }

    /// The check fails before receiving with `sentence`; returns that no DASH requests are logged.
    func fail(_ sentence: String) -> Bool {
        deliver(.failed(sentence, requests: requests(opening: true)))
        return false
    }

    /// Opening failed with `error`: interrupted, a DASH manifest a request policy cannot check, else the
    /// machine's sentence (a resource limit, the LL-HLS client's failure, FFmpeg's error).
    func openFailed(_ error: FFmpegError, dashChecked: Bool) {
        let requests = requests(opening: true)
        if cancelled.load(ordering: .acquiring) {
            deliver(.failed("\(source): interrupted while opening.", requests: requests))
        } else if requests.limit == nil, interrupter.policy != nil, !dashChecked, error.code == -EINVAL {
            // The demuxer was refused by the policy's format whitelist (MediaInput): DASH, in FFmpeg 5.1,
            // when the URL did not name a manifest bufprobe could check first.
            deliver(.failed("\(source) was not read: it is a DASH manifest not named like one (.mpd), which a request policy (--deny-private, serve --allow-target) refuses, since bufprobe checks the URLs a DASH manifest leads to only for a URL whose path ends in .mpd.", requests: requests))
        } else {
            deliver(.openFailed(error, requests: requests))
        }
    }
}
