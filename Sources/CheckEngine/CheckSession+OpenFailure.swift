import Foundation
import MediaIO
import BufprobeOutput

extension CheckSession {
    /// The failed report for an input that could not be opened: interrupted, over a resource limit, a DASH
    /// manifest a request policy cannot check, the LL-HLS client's own failure, else FFmpeg's error as a
    /// sentence.
    func openFailed(
        _ error: FFmpegError, report: CheckReport, dashChecked: Bool, lowLatency: LowLatencyPlayback?
    ) -> CheckReport {
        var report = report
        report.sampledDuration = JSONOutput.seconds(now())
        if cancelled.load(ordering: .acquiring) { return failing(report, "\(source): interrupted while opening.") }
        if let limit = resourceLimitSentence(opening: true) { return failing(report, limit) }
        // The demuxer was refused by the policy's format whitelist (MediaInput): DASH, in FFmpeg 5.1, when
        // the URL did not name a manifest bufprobe could check first.
        if interrupter.policy != nil, !dashChecked, error.code == -EINVAL {
            return failing(report, "\(source) was not read: it is a DASH manifest not named like one (.mpd), which a request policy (--deny-private, serve --allow-target) refuses, since bufprobe checks the URLs a DASH manifest leads to only for a URL whose path ends in .mpd.")
        }
        if let lowLatency {
            addLowLatency(lowLatency, to: &report)
            if let failure = lowLatency.failure { return failing(report, "\(source) could not be opened: \(failure)") }
        }
        return failing(report, CheckSentence.openFailure(error, source: source, lines: lines, timeout: settings.timeout))
    }
}
