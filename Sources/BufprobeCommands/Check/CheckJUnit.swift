package import CheckEngine
package import Foundation
import BufprobeOutput

/// `check --junit FILE`: the reports as a JUnit XML document (`JUnitDocument`). One `<testsuite>` named
/// `bufprobe check` holds one `<testcase>` per input (its name is the input as given): a pass is a plain
/// test case, `degraded` a `<failure>`, `fail` an `<error>` (an interrupted check too), each with the
/// verdict's sentence as its message. `time` is the seconds each input was checked and the whole run took;
/// the suite's `<properties>` are the thresholds in force and the versions, each case's the key figures of
/// its report (`null` ones left out), as pytest writes them; each case's `<system-out>` is the text report.
package enum CheckJUnit {
    /// The document for `reports`, a run of `time` seconds that began at `timestamp`.
    package static func render(_ reports: [CheckReport], time: Double, timestamp: Date) -> String {
        var suite: [(String, String)] = []
        if let first = reports.first {
            suite.append(("bufprobe_version", first.bufprobeVersion))
            suite.append(("libavformat_version", first.ffmpegVersions.libavformat))
            if let thresholds = first.settings.thresholds {
                for name in VerdictThresholds.Name.allCases {
                    suite.append((name.rawValue, thresholds[name].map(JUnitDocument.number) ?? "none"))
                }
            }
        }
        return JUnitDocument.render(name: "bufprobe check", cases: reports.map(testCase), properties: suite, time: time, timestamp: timestamp)
    }

    private static func testCase(_ report: CheckReport) -> JUnitDocument.TestCase {
        let figures: [(String, Double?)] = [
            ("startup_delay", report.startupDelay), ("stall_count", Double(report.stallCount)), ("stall_time", report.stallTime),
            ("rebuffer_ratio", report.rebufferRatio), ("played", report.played), ("sampled_duration", report.sampledDuration),
            ("throughput_bps", report.throughputBps), ("realtime_factor", report.realtimeFactor),
            ("live_latency_max", report.liveLatency?.max), ("live_latency_drift", report.liveLatency?.drift),
        ]
        var list = [("verdict", report.verdict.rawValue)]
        list += figures.compactMap { name, value in value.map { (name, JUnitDocument.number($0)) } }
        if report.interrupted == true { list.append(("interrupted", "true")) }
        let outcome: JUnitDocument.Outcome
        switch report.verdict {
        case .pass:
            outcome = .pass
        case .degraded:
            outcome = .failure(message: report.reason, type: "degraded")
        case .fail:
            outcome = .error(message: report.reason, type: report.interrupted == true ? "interrupted" : "fail")
        }
        return JUnitDocument.TestCase(
            name: report.source, classname: "bufprobe.check", time: report.sampledDuration, properties: list, outcome: outcome,
            systemOut: CheckText.render(report))
    }
}
