package import CheckEngine
package import Foundation
import BufprobeOutput

/// `check --junit FILE`: the reports as a JUnit XML document, the way CI systems (GitLab, Jenkins, GitHub
/// test reporters) show test results. One `<testsuite>` named `bufprobe check` holds one `<testcase>` per
/// input (its name is the input as given): a pass is a plain test case, `degraded` a `<failure>`, `fail`
/// an `<error>` (an interrupted check too), each with the verdict's sentence as its message. `time` is
/// the seconds each input was checked and the whole run took; the suite's `<properties>` are the
/// thresholds in force and the versions, each case's the key figures of its report (`null` ones left
/// out), as pytest writes them; each case's `<system-out>` is the text report.
package enum CheckJUnit {
    /// The document for `reports`, a run of `time` seconds that began at `timestamp`.
    package static func render(_ reports: [CheckReport], time: Double, timestamp: Date) -> String {
        let failures = reports.filter { $0.verdict == .degraded }.count
        let errors = reports.filter { $0.verdict == .fail }.count
        let counts = "tests=\"\(reports.count)\" failures=\"\(failures)\" errors=\"\(errors)\""
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"bufprobe check\" \(counts) time=\"\(seconds(time))\">\n"
        out += "  <testsuite name=\"bufprobe check\" \(counts) skipped=\"0\" time=\"\(seconds(time))\" timestamp=\"\(formatter.string(from: timestamp))\">\n"
        var suite: [(String, String)] = []
        if let first = reports.first {
            suite.append(("bufprobe_version", first.bufprobeVersion))
            suite.append(("libavformat_version", first.ffmpegVersions.libavformat))
            if let thresholds = first.settings.thresholds {
                for name in VerdictThresholds.Name.allCases {
                    suite.append((name.rawValue, thresholds[name].map(number) ?? "none"))
                }
            }
        }
        out += properties(suite, indent: "    ")
        for report in reports { out += testCase(report) }
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }

    private static func testCase(_ report: CheckReport) -> String {
        var out = "    <testcase name=\"\(escaped(report.source))\" classname=\"bufprobe.check\" time=\"\(seconds(report.sampledDuration))\">\n"
        let figures: [(String, Double?)] = [
            ("startup_delay", report.startupDelay), ("stall_count", Double(report.stallCount)), ("stall_time", report.stallTime),
            ("rebuffer_ratio", report.rebufferRatio), ("played", report.played), ("sampled_duration", report.sampledDuration),
            ("throughput_bps", report.throughputBps), ("realtime_factor", report.realtimeFactor),
            ("live_latency_max", report.liveLatency?.max), ("live_latency_drift", report.liveLatency?.drift),
        ]
        var list = [("verdict", report.verdict.rawValue)]
        list += figures.compactMap { name, value in value.map { (name, number($0)) } }
        if report.interrupted == true { list.append(("interrupted", "true")) }
        out += properties(list, indent: "      ")
        let message = escaped(report.reason)
        switch report.verdict {
        case .pass:
            break
        case .degraded:
            out += "      <failure message=\"\(message)\" type=\"degraded\">\(message)</failure>\n"
        case .fail:
            let type = report.interrupted == true ? "interrupted" : "fail"
            out += "      <error message=\"\(message)\" type=\"\(type)\">\(message)</error>\n"
        }
        out += "      <system-out>\(escaped(CheckText.render(report)))</system-out>\n"
        return out + "    </testcase>\n"
    }

    private static func properties(_ list: [(String, String)], indent: String) -> String {
        guard !list.isEmpty else { return "" }
        var out = "\(indent)<properties>\n"
        for (name, value) in list { out += "\(indent)  <property name=\"\(escaped(name))\" value=\"\(escaped(value))\"/>\n" }
        return out + "\(indent)</properties>\n"
    }

    /// Seconds with millisecond precision, as JUnit readers parse `time`.
    private static func seconds(_ value: Double) -> String { String(format: "%.3f", value.isFinite ? max(0, value) : 0) }

    /// A figure as JSON writes it: no trailing zeros (`1`, `0.25`).
    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// `text` for an attribute value or content: `XMLText`'s escapes.
    private static func escaped(_ text: String) -> String { XMLText.escaped(text) }
}
