import BufprobeOutput
import Foundation
import ValidateEngine

/// `validate --junit FILE`: one `<testcase>` per rule checked (named by its id, and the input when there
/// are several), through `JUnitDocument` as `check --junit` writes: a must-fix finding is a `<failure>`;
/// a should-fix finding leaves the case passing with the finding in its `<system-out>` (the exit code does
/// not fail on it either); an input that could not be read is one `<error>` case.
enum ValidateJUnit {
    /// The document for the inputs' reports (or failures), a run of `time` seconds that began at `timestamp`.
    static func render(_ results: [(source: String, result: Result<ValidationReport, ValidationFailure>)], time: Double, timestamp: Date) -> String {
        var cases: [JUnitDocument.TestCase] = []
        for (source, result) in results {
            let prefix = results.count > 1 ? "\(source) " : ""
            switch result {
            case .failure(let failure):
                cases.append(JUnitDocument.TestCase(
                    name: source, classname: "bufprobe.validate", time: 0,
                    outcome: .error(message: failure.description, type: "unreadable")))
            case .success(let report):
                for id in report.rulesChecked {
                    let findings = report.findings.filter { $0.rule == id }
                    let level = ValidationCatalogue.rule(id)?.level ?? .must
                    let text = findings.map { "\($0.message) (\($0.where.joined(separator: " ")))" }.joined(separator: "\n")
                    let outcome: JUnitDocument.Outcome =
                        findings.isEmpty || level == .should ? .pass : .failure(message: text, type: level.rawValue)
                    cases.append(JUnitDocument.TestCase(
                        name: prefix + id, classname: "bufprobe.validate", time: 0,
                        properties: [("level", level.rawValue), ("findings", String(findings.count))], outcome: outcome,
                        systemOut: findings.isEmpty ? nil : text))
                }
            }
        }
        return JUnitDocument.render(
            name: "bufprobe validate", cases: cases, properties: [("bufprobe_version", BufprobeVersion.full)], time: time,
            timestamp: timestamp)
    }
}
