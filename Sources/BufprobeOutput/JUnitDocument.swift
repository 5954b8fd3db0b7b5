package import Foundation

/// A JUnit XML document, the way CI systems (GitLab, Jenkins, GitHub test reporters) show test results: one
/// `<testsuite>` of `<testcase>`s, each a pass, a `<failure>` or an `<error>` with its message, its
/// `<properties>` as pytest writes them, and its `<system-out>`. `check --junit` (one case per input) and
/// `validate --junit` (one case per rule checked) both write through it.
package enum JUnitDocument {
    /// How a test case ended.
    package enum Outcome: Sendable, Hashable {
        /// Passed: a plain test case.
        case pass
        /// A `<failure>` of `type` with `message`.
        case failure(message: String, type: String)
        /// An `<error>` of `type` with `message`.
        case error(message: String, type: String)
    }

    /// One `<testcase>`.
    package struct TestCase: Sendable {
        /// `name`.
        package var name: String
        /// `classname`.
        package var classname: String
        /// `time`, seconds.
        package var time: Double
        /// Its `<properties>`, in order.
        package var properties: [(String, String)]
        /// How it ended.
        package var outcome: Outcome
        /// Its `<system-out>`, when it has one.
        package var systemOut: String?

        /// A test case.
        package init(
            name: String, classname: String, time: Double, properties: [(String, String)] = [], outcome: Outcome,
            systemOut: String? = nil
        ) {
            self.name = name
            self.classname = classname
            self.time = time
            self.properties = properties
            self.outcome = outcome
            self.systemOut = systemOut
        }
    }

    /// The document: a suite named `name` holding `cases`, with the suite's `properties`, a run of `time`
    /// seconds that began at `timestamp`.
    package static func render(
        name: String, cases: [TestCase], properties: [(String, String)], time: Double, timestamp: Date
    ) -> String {
        let failures = cases.filter { if case .failure = $0.outcome { true } else { false } }.count
        let errors = cases.filter { if case .error = $0.outcome { true } else { false } }.count
        let counts = "tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\""
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        let suiteName = escaped(name)
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"\(suiteName)\" \(counts) time=\"\(seconds(time))\">\n"
        out += "  <testsuite name=\"\(suiteName)\" \(counts) skipped=\"0\" time=\"\(seconds(time))\" timestamp=\"\(formatter.string(from: timestamp))\">\n"
        out += render(properties, indent: "    ")
        for testCase in cases { out += render(testCase) }
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }

    private static func render(_ testCase: TestCase) -> String {
        var out = "    <testcase name=\"\(escaped(testCase.name))\" classname=\"\(escaped(testCase.classname))\" time=\"\(seconds(testCase.time))\">\n"
        out += render(testCase.properties, indent: "      ")
        switch testCase.outcome {
        case .pass:
            break
        case .failure(let message, let type):
            out += "      <failure message=\"\(escaped(message))\" type=\"\(escaped(type))\">\(escaped(message))</failure>\n"
        case .error(let message, let type):
            out += "      <error message=\"\(escaped(message))\" type=\"\(escaped(type))\">\(escaped(message))</error>\n"
        }
        if let systemOut = testCase.systemOut { out += "      <system-out>\(escaped(systemOut))</system-out>\n" }
        return out + "    </testcase>\n"
    }

    private static func render(_ list: [(String, String)], indent: String) -> String {
        guard !list.isEmpty else { return "" }
        var out = "\(indent)<properties>\n"
        for (name, value) in list { out += "\(indent)  <property name=\"\(escaped(name))\" value=\"\(escaped(value))\"/>\n" }
        return out + "\(indent)</properties>\n"
    }

    /// Seconds with millisecond precision, as JUnit readers parse `time`.
    private static func seconds(_ value: Double) -> String { String(format: "%.3f", value.isFinite ? max(0, value) : 0) }

    /// A figure as JSON writes it: no trailing zeros (`1`, `0.25`).
    package static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// `text` for an attribute value or content: `XMLText`'s escapes.
    private static func escaped(_ text: String) -> String { XMLText.escaped(text) }
}
