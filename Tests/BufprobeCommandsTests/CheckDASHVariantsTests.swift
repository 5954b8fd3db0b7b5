import Foundation
import Testing
import TestSupport

/// `check --all-variants` on a DASH manifest: each video representation's `@bandwidth`, `@width`x`@height`
/// and `@codecs` against its fetched media.
@Suite("bufprobe check --all-variants on DASH")
struct CheckDASHVariantsTests {
    @Test("A static MPD's video representation that is what it declares passes; a twin declaring another size and codec is degraded, naming both")
    func staticManifest() throws {
        let directory = try CheckServers.temporaryDirectory("bufprobe-dash-variants")
        defer { try? FileManager.default.removeItem(at: directory) }
        try DASHSample.make(in: directory)
        // The twin: the same segments, the video declared 1280x720 and High profile instead of 320x180 High.
        let manifest = try String(contentsOf: directory.appendingPathComponent("manifest.mpd"), encoding: .utf8)
        let wrong = manifest.replacingOccurrences(of: #"width="320" height="180""#, with: #"width="1280" height="720""#)
            .replacingOccurrences(of: #"codecs="avc1.64000c""#, with: #"codecs="avc1.42c01f""#)
        #expect(wrong != manifest)
        try wrong.write(to: directory.appendingPathComponent("wrong.mpd"), atomically: true, encoding: .utf8)
        let server = try NginxServer(extraRoots: ["dash": directory])

        let good = try BufprobeProcess.run(["check", "--json", "--all-variants", server.url("dash/manifest.mpd")])
        let document = try CheckDocument.decode(good.stdout)
        #expect(good.status == 0, "\(document.reason) \(document.warnings)")
        let checks = try #require(document.variantChecks)
        #expect(checks.count == 1)
        #expect(checks.first?.problems.isEmpty == true, "\(checks.first?.problems.map(\.message) ?? [])")
        #expect(checks.first?.measured.width == 320 && checks.first?.measured.height == 180)
        #expect((checks.first?.measured.segmentsMeasured ?? 0) >= 2)

        let bad = try BufprobeProcess.run(["check", "--json", "--all-variants", server.url("dash/wrong.mpd")])
        let badDocument = try CheckDocument.decode(bad.stdout)
        #expect(bad.status == 1, "\(badDocument.reason)")
        #expect(badDocument.verdict == "degraded")
        let problems = try #require(badDocument.variantChecks?.first?.problems)
        #expect(problems.map(\.kind).sorted() == ["codecs_mismatch", "resolution_mismatch"], "\(problems.map(\.message))")
        #expect(problems.contains { $0.message == "Variant 0 (Representation 0) declares @width x @height 1280x720 but its video is 320x180." }, "\(problems.map(\.message))")
    }

    @Test("@bandwidth is held to the average of the sized segments (FFmpeg writes the average; its segments peak above it)")
    func bandwidthIsAnAverage() throws {
        let directory = try CheckServers.temporaryDirectory("bufprobe-dash-bandwidth")
        defer { try? FileManager.default.removeItem(at: directory) }
        try DASHSample.make(in: directory)
        let manifest = try String(contentsOf: directory.appendingPathComponent("manifest.mpd"), encoding: .utf8)
        let low = try #require(manifest.firstMatch(of: /codecs="avc1[^"]*" bandwidth="(\d+)"/))
        // A third of what FFmpeg measured: the average is far above it.
        let lowered = manifest.replacingOccurrences(of: String(low.0), with: String(low.0).replacingOccurrences(of: "bandwidth=\"\(low.1)\"", with: "bandwidth=\"\(Int(low.1)! / 3)\""))
        try lowered.write(to: directory.appendingPathComponent("low.mpd"), atomically: true, encoding: .utf8)
        let server = try NginxServer(extraRoots: ["dash": directory])
        let result = try BufprobeProcess.run(["check", "--json", "--all-variants", server.url("dash/low.mpd")])
        let document = try CheckDocument.decode(result.stdout)
        let problems = try #require(document.variantChecks?.first?.problems)
        #expect(problems.map(\.kind) == ["bandwidth_exceeded"], "\(problems.map(\.message))")
        #expect(problems.first?.message.contains("above its @bandwidth of") == true, "\(problems.map(\.message))")
        #expect(document.verdict == "degraded")
    }
}
