import Foundation
import Testing
import TestSupport

/// `bufprobe validate`, the real binary: exit codes 0/1/2/64, `--json`, `--ignore`, `--junit`, and a stream
/// served by nginx on 127.0.0.1.
@Suite("bufprobe validate")
struct ValidateCommandTests {
    @Test func cleanStreamOverHTTPExitsZero() throws {
        let folder = try ValidateFixtures.clean(.fmp4)
        defer { try? FileManager.default.removeItem(at: folder) }
        let nginx = try NginxServer(extraRoots: ["stream": folder])
        let result = try BufprobeProcess.run(["validate", nginx.url("stream/master.m3u8")], timeout: 60)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("MUST FIX (0)"))
        #expect(result.stdout.contains("4/4"))
        // Every segment and the init sections were asked for.
        #expect(nginx.requestedPaths().filter { $0.hasSuffix(".m4s") }.count == 8)
    }

    @Test func missingSegmentOverHTTPIsAMustFixFinding() throws {
        let master = try ValidateFixtures.make("segmentMissing")
        let folder = master.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        let nginx = try NginxServer(extraRoots: ["stream": folder])
        let result = try BufprobeProcess.run(["validate", nginx.url("stream/master.m3u8")], timeout: 60)
        #expect(result.status == 1)
        #expect(result.stdout.contains("bufprobe:read"))
        #expect(result.stdout.contains("answered HTTP 404"))
    }

    @Test func slowServerIsCutAtMaxTimeAndTheReportSaysWhatWasNotRead() throws {
        let folder = try ValidateFixtures.clean(.ts)
        defer { try? FileManager.default.removeItem(at: folder) }
        // 4,000 bytes/s: every read gets data (no --timeout trips), but each ~50 kB segment takes over 10 s.
        let nginx = try NginxServer(rates: [4_000], extraRoots: ["stream": folder])
        let result = try BufprobeProcess.run(
            ["validate", "--json", "--max-time", "3s", nginx.url("stream/master.m3u8", bytesPerSecond: 4_000)], timeout: 60)
        // Killed by the test's guard it would be 137: --max-time ended it. What it cut is not read, not a finding.
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let notRead = try #require(document["not_read"] as? [String])
        #expect(notRead.contains { $0.contains("--max-time") })
        let findings = try #require(document["findings"] as? [[String: Any]])
        #expect(!findings.contains { $0["rule"] as? String == "bufprobe:read" })
        #expect((document["segments_read"] as? Int ?? 8) < 8)
    }

    @Test func mustFixFindingExitsOneAndJSONNamesItsFigures() throws {
        let master = try ValidateFixtures.make("bandwidthWrong")
        defer { try? FileManager.default.removeItem(at: master.deletingLastPathComponent()) }
        let result = try BufprobeProcess.run(["validate", "--json", master.path], timeout: 60)
        #expect(result.status == 1, "\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(document["schema_version"] as? Int == 1)
        let findings = try #require(document["findings"] as? [[String: Any]])
        let peak = try #require(findings.first { $0["rule"] as? String == "apple:1.27" })
        #expect(peak["level"] as? String == "must")
        for key in ["message", "where", "count", "measured", "declared"] { #expect(peak.keys.contains(key), "\(key)") }
        #expect((peak["measured"] as? Double ?? 0) > (peak["declared"] as? Double ?? .infinity))

        let ignored = try BufprobeProcess.run(["validate", "--json", "--ignore", "apple:1.27", master.path], timeout: 60)
        #expect(ignored.status == 0, "\(ignored.stdout)")
        let rest = try #require(try JSONSerialization.jsonObject(with: Data(ignored.stdout.utf8)) as? [String: Any])
        #expect((rest["findings"] as? [[String: Any]])?.contains { $0["rule"] as? String == "apple:1.27" } == false)
    }

    @Test func unreadableInputExitsTwoWithOneSentence() throws {
        let missing = try BufprobeProcess.run(["validate", "/nonexistent/master.m3u8"], timeout: 30)
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("error: /nonexistent/master.m3u8 "))
        #expect(missing.stderr.split(separator: "\n").count == 1)
        let notPlaylist = try BufprobeProcess.run(["validate", Samples.directory.appendingPathComponent("h264-aac.mp4").path], timeout: 30)
        #expect(notPlaylist.status == 2)
        #expect(notPlaylist.stderr.contains("is not an HLS playlist"))
        let nginx = try NginxServer()
        let gone = try BufprobeProcess.run(["validate", nginx.url("nothing/master.m3u8")], timeout: 30)
        #expect(gone.status == 2)
        #expect(gone.stderr.contains("answered HTTP 404"))
    }

    @Test func unknownIgnoredRuleIsAUsageError() throws {
        let result = try BufprobeProcess.run(["validate", "--ignore", "apple:99.1", "master.m3u8"], timeout: 30)
        #expect(result.status == 64)
        #expect(result.stderr.contains("apple:99.1"))
    }

    /// Reads a JUnit file as CI systems do: one suite whose counts add up, one case per rule checked, and
    /// prints `name|outcome` per case.
    static let reader = #"""
        import sys, xml.etree.ElementTree as ET
        root = ET.parse(sys.argv[1]).getroot()
        assert root.tag == "testsuites", root.tag
        suite = root.findall("testsuite")[0]
        cases = suite.findall("testcase")
        assert int(suite.get("tests")) == len(cases)
        assert int(suite.get("failures")) == sum(1 for c in cases if c.find("failure") is not None)
        for case in cases:
            for attribute in ("name", "classname", "time"):
                assert attribute in case.attrib, attribute
            failure = case.find("failure")
            print(case.get("name") + "|" + ("failure:" + failure.get("type") if failure is not None else "passed"))
        """#

    @Test func junitHasOneTestCasePerRuleAndAFailurePerBrokenMustRule() throws {
        let master = try ValidateFixtures.make("singleVariant")
        let folder = master.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = folder.appendingPathComponent("validate.xml").path
        let result = try BufprobeProcess.run(["validate", "--junit", junit, master.path], timeout: 60)
        #expect(result.status == 0, "\(result.stdout)")
        let lines = try Samples.run("python3", ["-c", Self.reader, junit]).split(separator: "\n").map(String.init)
        let json = try BufprobeProcess.run(["validate", "--json", master.path], timeout: 60)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(lines.count == (document["rules_checked"] as? [String])?.count)
        // apple:9.9 is a should: the case passes (as the exit code does), its finding in system-out.
        #expect(lines.contains("apple:9.9|passed"))
        #expect(lines.allSatisfy { $0.hasSuffix("|passed") })

        let broken = try ValidateFixtures.make("resolutionWrong")
        defer { try? FileManager.default.removeItem(at: broken.deletingLastPathComponent()) }
        let failing = try BufprobeProcess.run(["validate", "--junit", junit, broken.path], timeout: 60)
        #expect(failing.status == 1)
        let failed = try Samples.run("python3", ["-c", Self.reader, junit])
        #expect(failed.contains("apple:9.4|failure:must"))
    }
}
