import BufprobeOutput
import Foundation
import ValidateEngine

/// `validate --html FILE`: one self-contained page a person opens (no script, no request: the style is
/// inline), per input the summary, the findings grouped MUST FIX / SHOULD FIX with each rule's statement,
/// the measured table per variant, what was not read, and every rule checked with its outcome. Every word
/// from the stream passes through `XMLText.escaped`, so no playlist can inject markup.
enum ValidateHTML {
    /// The page for the inputs' reports (or failures), made at `date`.
    static func render(_ results: [(source: String, result: Result<ValidationReport, ValidationFailure>)], date: Date) -> String {
        var body = ""
        for (source, result) in results {
            switch result {
            case .success(let report): body += section(report)
            case .failure(let failure):
                body += "<section><h2>\(e(source))</h2><p class=\"verdict unreadable\">Not validated: \(e(failure.description))</p></section>\n"
            }
        }
        let title = results.count == 1 ? "bufprobe validate: \(results[0].source)" : "bufprobe validate: \(results.count) inputs"
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
            <title>\(e(title))</title>
            <style>\(style)</style></head>
            <body><h1>bufprobe validate</h1>
            <p class="meta">\(e(BufprobeVersion.full)), \(e(ISO8601DateFormatter().string(from: date))). Rules, tolerances and editions: docs/validate.md.</p>
            \(body)</body></html>

            """
    }

    private static let style = """
        body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1b1f24;background:#fff}
        h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;word-break:break-all}
        h3{font-size:15px;margin:18px 0 6px}.meta{color:#57606a;margin:0 0 12px}
        .verdict{display:inline-block;padding:6px 12px;border-radius:6px;font-weight:600}
        .pass{background:#dafbe1;color:#116329}.fail{background:#ffebe9;color:#a40e26}
        .unreadable{background:#fff8c5;color:#7d4e00}.counts{margin-left:12px;color:#57606a}
        table{border-collapse:collapse;margin:4px 0 12px;font-size:13px}
        th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}
        th{background:#f6f8fa}td.num{text-align:right;font-variant-numeric:tabular-nums}
        code{font:12px ui-monospace,monospace;word-break:break-all}.must{color:#a40e26;font-weight:600}
        .should{color:#7d4e00;font-weight:600}.ok{color:#116329}.none{color:#57606a}
        details{margin:6px 0}summary{cursor:pointer;color:#0969da}
        """

    /// One input's section.
    private static func section(_ report: ValidationReport) -> String {
        let failed = !report.mustFix.isEmpty
        var out = "<section><h2>\(e(report.source))</h2>\n"
        out += "<p><span class=\"verdict \(failed ? "fail" : "pass")\">\(failed ? "MUST FIX findings" : "No must-fix finding")</span>"
        out += "<span class=\"counts\">\(report.mustFix.count) must fix, \(report.shouldFix.count) should fix; "
        out += "\(report.playlists) media playlist\(report.playlists == 1 ? "" : "s"), \(report.segmentsRead) segments read "
        out += "(\(e(TextFormat.bytes(report.bytesRead)))) in \(e(TextFormat.seconds(report.seconds))); \(report.rulesChecked.count) rules checked</span></p>\n"
        for (title, level, findings) in [("MUST FIX", "must", report.mustFix), ("SHOULD FIX", "should", report.shouldFix)] {
            out += "<h3>\(title) (\(findings.count))</h3>\n"
            guard !findings.isEmpty else {
                out += "<p class=\"none\">none</p>\n"
                continue
            }
            out += "<table><tr><th>Rule</th><th>Finding</th><th>How often</th><th>Where</th></tr>\n"
            for finding in findings {
                let statement = ValidationCatalogue.rule(finding.rule)?.statement ?? ""
                let often = finding.count.map { count in finding.total.map { "\(count) of \($0)" } ?? String(count) } ?? ""
                out += "<tr><td class=\"\(level)\"><code>\(e(finding.rule))</code></td>"
                out += "<td>\(e(finding.message))<br><span class=\"none\">\(e(statement))</span></td>"
                out += "<td class=\"num\">\(e(often))</td><td>\(finding.where.map { "<code>\(e($0))</code>" }.joined(separator: "<br>"))</td></tr>\n"
            }
            out += "</table>\n"
        }
        out += measured(report)
        if !report.notRead.isEmpty {
            out += "<h3>Not read</h3><ul>" + report.notRead.map { "<li>\(e($0))</li>" }.joined() + "</ul>\n"
        }
        out += "<details><summary>Rules checked (\(report.rulesChecked.count))</summary><table><tr><th>Rule</th><th>Level</th><th>Outcome</th><th>Statement</th><th>Tolerance</th></tr>\n"
        for id in report.rulesChecked {
            let rule = ValidationCatalogue.rule(id)
            let found = report.findings.filter { $0.rule == id }.count
            out += "<tr><td><code>\(e(id))</code></td><td>\(e(rule?.level.rawValue ?? ""))</td>"
            out += found == 0 ? "<td class=\"ok\">passed</td>" : "<td class=\"\(e(rule?.level.rawValue ?? "must"))\">\(found) finding\(found == 1 ? "" : "s")</td>"
            out += "<td>\(e(rule?.statement ?? ""))</td><td>\(e(rule?.tolerance ?? ""))</td></tr>\n"
        }
        return out + "</table></details></section>\n"
    }

    /// The measured table, the text report's cells (`ValidateText.table`): figures right-aligned, codecs,
    /// ids and URIs as code.
    private static func measured(_ report: ValidationReport) -> String {
        let rows = ValidateText.table(report)
        guard let header = rows.first else { return "" }
        let textual: Set<String> = ["ID", "CODECS", "PLAYLIST"]
        var out = "<h3>Measured</h3><table><tr>" + header.map { "<th>\(e($0))</th>" }.joined() + "</tr>\n"
        for row in rows.dropFirst() {
            out += "<tr>" + zip(header, row).map { name, cell in
                textual.contains(name) ? "<td><code>\(e(cell))</code></td>" : "<td class=\"num\">\(e(cell))</td>"
            }.joined() + "</tr>\n"
        }
        return out + "</table>\n"
    }

    private static func e(_ text: String) -> String { XMLText.escaped(text) }
}
