@testable import BufprobeCommands
import Foundation
import Testing
import TestSupport
import BufprobeOutput

/// `check --junit FILE`: the report CI systems read, checked by a JUnit reader (Python's `xml.etree`
/// against the elements and attributes the JUnit schema requires) on a real run of three inputs.
@Suite("check --junit")
struct CheckJUnitTests {
    /// Reads a JUnit file as CI systems do and checks the schema's required parts: `testsuites` >
    /// one `testsuite` (name, tests, failures, errors, time, timestamp) > `testcase`s (name, classname,
    /// time), each with at most one `failure` or `error` (message, type), counts that add up, numeric
    /// times. Prints one line per case, `verdict|name|outcome|message`.
    static let reader = #"""
        import sys, xml.etree.ElementTree as ET
        root = ET.parse(sys.argv[1]).getroot()
        assert root.tag == "testsuites", root.tag
        suites = root.findall("testsuite")
        assert len(suites) == 1, len(suites)
        suite = suites[0]
        for attribute in ("name", "tests", "failures", "errors", "time", "timestamp"):
            assert attribute in suite.attrib, attribute
        cases = suite.findall("testcase")
        assert int(suite.get("tests")) == len(cases)
        assert float(suite.get("time")) >= 0
        assert int(suite.get("failures")) == sum(1 for c in cases if c.find("failure") is not None)
        assert int(suite.get("errors")) == sum(1 for c in cases if c.find("error") is not None)
        names = {p.get("name"): p.get("value") for p in suite.find("properties").findall("property")}
        assert names["max_stalls"] == "1" and names["max_rebuffer_ratio"] == "0.05", names
        for case in cases:
            for attribute in ("name", "classname", "time"):
                assert attribute in case.attrib, attribute
            assert float(case.get("time")) >= 0
            outcomes = [e for e in case if e.tag in ("failure", "error", "skipped")]
            assert len(outcomes) <= 1, outcomes
            props = {p.get("name"): p.get("value") for p in case.find("properties").findall("property")}
            assert case.find("system-out") is not None
            outcome, message = "passed", ""
            if outcomes:
                outcome, message = outcomes[0].tag, outcomes[0].get("message")
                assert message and outcomes[0].get("type"), outcomes[0].attrib
            print("|".join([props["verdict"], case.get("name"), outcome, message]))
        """#

    @Test("one test case per input: pass passed, degraded a failure, fail an error, each with its reason; read by a JUnit parser")
    func threeInputs() throws {
        let directory = try CheckServers.temporaryDirectory("bufprobe-junit")
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("report.xml")
        let good = BufprobeProcess.sample("h264-aac.mp4")
        let holed = BufprobeProcess.sample("gap.ts")
        let missing = directory.appendingPathComponent("missing & <odd>.mp4").path
        let run = try BufprobeProcess.run([
            "check", "--progress", "none", "--max-stalls", "1", "--max-rebuffer-ratio", "0.05", "--junit", report.path,
            good, holed, missing,
        ])
        #expect(run.status == 2, "the worst verdict's code: \(run.stderr)")
        let script = directory.appendingPathComponent("read.py")
        try Self.reader.write(to: script, atomically: true, encoding: .utf8)
        let cases = try Samples.run("python3", [script.path, report.path]).split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
        #expect(cases.count == 3, "\(cases)")
        guard cases.count == 3 else { return }
        #expect(cases[0][0...2] == ["pass", good, "passed"])
        #expect(cases[1][0...2] == ["degraded", holed, "failure"])
        #expect(cases[1][3].contains("hole"), "\(cases[1][3])")
        #expect(cases[2][0...2] == ["fail", missing, "error"], "names with markup characters survive: \(cases[2])")
        #expect(!cases[2][3].isEmpty)
    }

    @Test("text from outside is escaped: markup characters as entities, control characters XML cannot carry replaced")
    func escaping() {
        #expect(XMLText.escaped("a&b<c>\"d'") == "a&amp;b&lt;c&gt;&quot;d&apos;")
        #expect(XMLText.escaped("x\u{1B}[31my\u{0}") == "x\u{FFFD}[31my\u{FFFD}")
        #expect(XMLText.escaped("line\nnext\tcol") == "line\nnext\tcol")
    }
}
