import BufprobeOutput
package import ValidateEngine

/// The metrics `/probe` answers for a module with `validate: true` (`bufprobe validate` run within the
/// scrape's budget), in the Prometheus text format, by the conventions `ProbeMetrics` keeps.
///
/// `bufprobe_validation_findings{rule,level}` is written for every rule checked, 0 included, so that an
/// alert on one rule (or on `level="must"`) always has a series to compare; its value is the rule's
/// findings (one per variant, playlist or kind of fault the rule reports). `bufprobe_verdict` follows
/// check's meaning: `pass` (no must-fix finding), `degraded` (must-fix findings: the stream was read, and
/// breaks a MUST rule), `fail` (the target could not be read); `bufprobe_probe_success` is 0 only for
/// `fail`, as for a check.
package enum ValidationMetrics {
    /// The check verdict a validation maps to, for the exporter's own counters and the log.
    package static func verdict(of result: Result<ValidationReport, ValidationFailure>) -> String {
        switch result {
        case .failure: "fail"
        case .success(let report): report.mustFix.isEmpty ? "pass" : "degraded"
        }
    }

    /// The exposition of a validation of `target`; `probeSeconds` is the wall-clock time it took.
    package static func exposition(of result: Result<ValidationReport, ValidationFailure>, target: String, probeSeconds: Double) -> String {
        let verdict = verdict(of: result)
        var text = ProbeMetrics.family("bufprobe_probe_duration_seconds", "Wall-clock seconds the exporter spent on this validation.", [([], probeSeconds)])
        text += ProbeMetrics.family(
            "bufprobe_probe_success", "1 when the validation read the target (verdict pass or degraded), 0 when it could not.",
            [([], verdict == "fail" ? 0 : 1)])
        if case .success(let report) = result {
            text += ProbeMetrics.family(
                "bufprobe_validation_findings",
                "Findings per rule checked (every rule written, 0 included) and its level (must, should), as bufprobe validate reports them.",
                report.rulesChecked.map { id in
                    let level = ValidationCatalogue.rule(id)?.level.rawValue ?? "must"
                    return ([("rule", id), ("level", level)], Double(report.findings.filter { $0.rule == id }.count))
                })
            text += ProbeMetrics.family("bufprobe_validation_playlists", "Media playlists read (variants, renditions, I-frame playlists).", [([], Double(report.playlists))])
            text += ProbeMetrics.family("bufprobe_validation_segments_read", "Segments read and judged.", [([], Double(report.segmentsRead))])
            text += ProbeMetrics.family("bufprobe_validation_read_bytes", "Bytes of segments read.", [([], Double(report.bytesRead))])
            text += ProbeMetrics.family(
                "bufprobe_validation_complete", "1 when every segment was read, 0 when the budget left some unread (the findings judge what was read).",
                [([], report.notRead.isEmpty ? 1 : 0)])
        }
        text += ProbeMetrics.family(
            "bufprobe_verdict", "1 for the validation's verdict (pass: no must-fix finding, degraded: must-fix findings, fail: not read), 0 for the others.",
            ["pass", "degraded", "fail"].map { ([("verdict", $0)], verdict == $0 ? 1 : 0) })
        text += ProbeMetrics.family(
            "bufprobe_probe_info", "Always 1; labels: the target, the prober (validate), bufprobe's version.",
            [([("target", target), ("prober", "validate"), ("version", BufprobeVersion.string)], 1)])
        return text
    }

    /// The debug answer (`debug=true`): the findings as sentences, the metrics, the module.
    package static func debug(
        of result: Result<ValidationReport, ValidationFailure>, target: String, module: ProbeModule, budget: Double, metrics: String
    ) -> String {
        var lines = ["Logs for the probe:", "target: \(target)", "verdict: \(verdict(of: result))"]
        switch result {
        case .failure(let failure): lines.append("not validated: \(failure.description)")
        case .success(let report):
            lines.append("\(report.playlists) media playlists, \(report.segmentsRead) segments read in \(TextFormat.seconds(report.seconds)); \(report.rulesChecked.count) rules checked")
            lines += report.findings.map { "\($0.level == .must ? "MUST FIX" : "SHOULD FIX") \($0.rule): \($0.message) (\($0.where.joined(separator: " ")))" }
            lines += report.notRead.map { "not read: " + $0 }
        }
        return lines.joined(separator: "\n") + "\n\nMetrics that would have been returned:\n\(metrics)\nValidation budget: \(budget)s\n\nModule configuration:\n\(module.summary)\n"
    }
}
