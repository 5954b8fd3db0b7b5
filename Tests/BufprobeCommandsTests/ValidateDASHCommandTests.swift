import Foundation
import Testing
import TestSupport

/// `bufprobe validate` of DASH, the real binary: the same exit codes, text, `--json`, `--junit` and
/// `--ignore` as for HLS, on ffmpeg's DASH ladder served by nginx on 127.0.0.1.
@Suite("bufprobe validate (DASH)")
struct ValidateDASHCommandTests {
    @Test func cleanLadderOverHTTPExitsZeroWithTheMeasuredTable() throws {
        let folder = try ValidateFixtures.cleanDASH()
        defer { try? FileManager.default.removeItem(at: folder) }
        let nginx = try NginxServer(extraRoots: ["dash": folder])
        let result = try BufprobeProcess.run(["validate", nginx.url("dash/manifest.mpd")], timeout: 60)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("3 representations, 13 segments read"))
        #expect(result.stdout.contains("MUST FIX (0)"))
        #expect(result.stdout.contains("NEEDED"))
        #expect(result.stdout.contains("384x216") && result.stdout.contains("25/1"))
        // Every segment and every initialization segment was asked for.
        #expect(Set(nginx.requestedPaths().filter { $0.hasSuffix(".m4s") }).count == 16)
    }

    @Test func missingSegmentOverHTTPIsAMustFixFinding() throws {
        let folder = try ValidateFixtures.cleanDASH()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.removeItem(at: folder.appendingPathComponent("chunk-stream0-00002.m4s"))
        let nginx = try NginxServer(extraRoots: ["dash": folder])
        let result = try BufprobeProcess.run(["validate", nginx.url("dash/manifest.mpd")], timeout: 60)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("bufprobe:read"))
        #expect(result.stdout.contains("answered HTTP 404"))
    }

    @Test func mustFixFindingExitsOneAndJSONJUnitAndIgnoreWorkAsForHLS() throws {
        let mpd = try ValidateFixtures.make("dashBandwidthTooLow")
        let folder = mpd.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = folder.appendingPathComponent("validate.xml").path
        let result = try BufprobeProcess.run(["validate", "--json", "--junit", junit, mpd.path], timeout: 60)
        #expect(result.status == 1, "\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(document["format"] as? String == "dash")
        let findings = try #require(document["findings"] as? [[String: Any]])
        let bandwidth = try #require(findings.first { $0["rule"] as? String == "iso23009-1:5.3.5.2@bandwidth" })
        #expect(bandwidth["level"] as? String == "must")
        #expect(bandwidth["declared"] as? Double == 150_000)
        let rows = try #require(document["variants"] as? [[String: Any]])
        #expect(rows.count == 3)
        #expect(rows[1]["id"] as? String == "1" && (rows[1]["needed_bandwidth"] as? Double ?? 0) > 150_000)
        let cases = try Samples.run("python3", ["-c", ValidateCommandTests.reader, junit])
        #expect(cases.contains("iso23009-1:5.3.5.2@bandwidth|failure:must"))
        #expect(cases.contains("iso23009-1:5.3.9.6|passed"))

        let ignored = try BufprobeProcess.run(["validate", "--ignore", "iso23009-1:5.3.5.2@bandwidth", mpd.path], timeout: 60)
        #expect(ignored.status == 0, "\(ignored.stdout)")
        #expect(!ignored.stdout.contains("iso23009-1:5.3.5.2@bandwidth"))
    }

    @Test func mpdThatIsNotXMLExitsTwoWithOneSentence() throws {
        let folder = try CheckServers.temporaryDirectory("bufprobe-validate-dash")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("manifest.mpd").path
        try "<MPD><Period>".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try BufprobeProcess.run(["validate", path], timeout: 30)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("error: \(path) is not well-formed XML"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }
}
