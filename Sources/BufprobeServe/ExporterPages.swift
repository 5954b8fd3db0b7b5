package import CheckEngine
import Foundation
import BufprobeOutput

/// The exporter's pages for people: `/` (what it answers, and the recent probes with a link to each log)
/// and the debug text of one probe (`/probe?...&debug=true`, `/logs?id=N`), as the blackbox exporter
/// shows them. Everything from a request is escaped for HTML.
package enum ExporterPages {
    /// The `/` page: the endpoints, then the recent probes, newest first.
    package static func index(recent: [RecentProbes.Entry], modules: [String]) -> String {
        var rows = ""
        for entry in recent {
            rows += "<tr><td>\(escaped(entry.module))</td><td>\(escaped(entry.target))</td>"
                + "<td class=\"\(escaped(entry.verdict))\">\(escaped(entry.verdict))</td>"
                + "<td>\(entry.time.formatted(.iso8601))</td><td>\(String(format: "%.2f", entry.seconds)) s</td>"
                + "<td><a href=\"/logs?id=\(entry.id)\">log</a></td></tr>\n"
        }
        return """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>bufprobe exporter</title>
            <style>body{font-family:sans-serif}td,th{padding:2px 8px;text-align:left}.fail{color:#b00}.degraded{color:#a60}.pass{color:#070}</style>
            </head><body>
            <h1>bufprobe exporter \(BufprobeVersion.string)</h1>
            <p><a href="/metrics">/metrics</a>: the exporter's own metrics.
            <code>/probe?target=URL[&amp;module=NAME&amp;duration=S&amp;timeout=S&amp;variant=V&amp;all_variants=true&amp;debug=true]</code>: one check's metrics
            (<code>debug=true</code>: its log and settings instead).</p>
            <p>Modules: \(modules.map(escaped).joined(separator: ", "))</p>
            <h2>Recent probes</h2>
            <table><tr><th>Module</th><th>Target</th><th>Verdict</th><th>Ended</th><th>Took</th><th>Log</th></tr>
            \(rows)</table>
            </body></html>

            """
    }

    /// The debug text of one check: its log (the report as `bufprobe check` prints it, its warnings), the
    /// metrics a scrape would have got, and the settings and module it ran with.
    package static func debug(
        report: CheckReport, target: String, module: ProbeModule, settings: CheckSettings, budget: Double, metrics: String
    ) -> String {
        var settingsLines = [
            "budget: \(budget)s", "timeout: \(settings.timeout)s",
            "duration: \(settings.duration.map { "\($0)s" } ?? "all of the budget")", "variant: \(report.settings.variant)",
            "all_variants: \(settings.allVariants)", "user_agent: \(settings.userAgent ?? BufprobeVersion.userAgent)",
            "headers: \(settings.headers.count)",
        ]
        if let cmcd = settings.cmcd { settingsLines.append("cmcd: \(cmcd.mode.rawValue) sid=\(cmcd.sessionID)") }
        return """
            Logs for the probe:
            target: \(target)
            verdict: \(report.verdict.rawValue): \(report.reason)
            \(CheckText.render(report))
            warnings: \(report.warnings.isEmpty ? "none" : "")\(report.warnings.map { "\n- " + $0 }.joined())

            Metrics that would have been returned:
            \(metrics)
            Check settings:
            \(settingsLines.joined(separator: "\n"))

            Module configuration:
            \(module.summary)

            """
    }

    /// `text` as HTML content or an attribute value (`XMLText`: the entities, and no control character).
    package static func escaped(_ text: String) -> String { XMLText.escaped(text) }
}
