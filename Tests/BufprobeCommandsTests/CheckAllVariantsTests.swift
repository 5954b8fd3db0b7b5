@testable import BufprobeCommands
@testable import CheckEngine
import Foundation
import MediaIO
import Testing
import TestSupport

/// `bufprobe check --all-variants` against nginx on 127.0.0.1 serving a ladder ffmpeg makes at test time:
/// every variant's playlist, first segment and segment sizes against what the master declares.
@Suite("bufprobe check --all-variants")
struct CheckAllVariantsTests {
    /// A 4 s ladder of 1 s segments: `v0` 640x360, `v1` 480x270, `v2` 320x180 (MPEG-TS, H.264 + AAC,
    /// 25 fps) and `f0` 320x180 fragmented MP4 with an `#EXT-X-MAP` init section; and the `CODECS` ffmpeg
    /// wrote for each, by directory.
    static func makeLadder() throws -> (directory: URL, codecs: [String: String]) {
        let directory = try CheckServers.temporaryDirectory("bufprobe-ladder")
        let sources = [
            "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100",
            "-t", "4",
        ]
        let hls = ["-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod"]
        let video = ["-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-c:a", "aac", "-b:a", "64k"]
        _ = try Samples.run("ffmpeg", ["-v", "error", "-y"] + sources + [
            "-filter_complex", "[0:v]split=3[a][b][c];[b]scale=480x270[b2];[c]scale=320x180[c2]",
            "-map", "[a]", "-map", "1:a", "-map", "[b2]", "-map", "1:a", "-map", "[c2]", "-map", "1:a",
        ] + video + ["-b:v:0", "600k", "-b:v:1", "300k", "-b:v:2", "150k"] + hls + [
            "-hls_segment_filename", directory.path + "/v%v/seg%03d.ts", "-master_pl_name", "ffmpeg.m3u8",
            "-var_stream_map", "v:0,a:0 v:1,a:1 v:2,a:2", directory.path + "/v%v/index.m3u8",
        ])
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("f0"), withIntermediateDirectories: true)
        _ = try Samples.run("ffmpeg", ["-v", "error", "-y"] + sources + ["-vf", "scale=320x180"] + video + ["-b:v", "150k"] + hls + [
            "-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4",
            "-hls_segment_filename", directory.path + "/f0/seg%03d.m4s", directory.path + "/f0/index.m3u8",
        ])
        // ffmpeg's own masters name the CODECS it wrote (its BANDWIDTH is an estimate, not used).
        var codecs: [String: String] = [:]
        let master = try String(contentsOf: directory.appendingPathComponent("ffmpeg.m3u8"), encoding: .utf8)
        var pending: String?
        for line in master.split(separator: "\n") {
            if let range = line.range(of: "CODECS=\"") {
                pending = String(line[range.upperBound...].prefix { $0 != "\"" })
            } else if let value = pending, line.hasSuffix("index.m3u8") {
                codecs[String(line.split(separator: "/").first ?? "")] = value
                pending = nil
            }
        }
        // The fMP4 variant is encoded like v2.
        codecs["f0"] = codecs["v2"]
        // r0: v2's segments as byte ranges of one file that starts with v0's first segment, so a range
        // read from the wrong offset would find 640x360 video.
        let prefix = try Data(contentsOf: directory.appendingPathComponent("v0/seg000.ts"))
        var joined = prefix
        var ranges: [(Int, Int)] = []
        for number in 0..<3 {
            let segment = try Data(contentsOf: directory.appendingPathComponent(String(format: "v2/seg%03d.ts", number)))
            ranges.append((segment.count, joined.count))
            joined.append(segment)
        }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("r0"), withIntermediateDirectories: true)
        try joined.write(to: directory.appendingPathComponent("r0/joined.ts"))
        let rangePlaylist = "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:1\n"
            + ranges.map { "#EXTINF:1.0,\n#EXT-X-BYTERANGE:\($0.0)@\($0.1)\njoined.ts\n" }.joined() + "#EXT-X-ENDLIST\n"
        try rangePlaylist.write(to: directory.appendingPathComponent("r0/index.m3u8"), atomically: true, encoding: .utf8)
        codecs["r0"] = codecs["v2"]
        #expect(codecs.count == 5, "\(master)")
        return (directory, codecs)
    }

    static func write(_ master: String, to directory: URL) throws {
        try ("#EXTM3U\n#EXT-X-VERSION:7\n" + master).write(
            to: directory.appendingPathComponent("master.m3u8"), atomically: true, encoding: .utf8)
    }

    @Test("a correctly labelled ladder (MPEG-TS, fMP4 with an init section, byte ranges) has no problem and passes")
    func correctLadderPasses() throws {
        let (directory, codecs) = try Self.makeLadder()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.write(
            """
            #EXT-X-STREAM-INF:BANDWIDTH=3000000,RESOLUTION=640x360,FRAME-RATE=25.000,CODECS="\(codecs["v0"] ?? "")"
            v0/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2000000,RESOLUTION=480x270,FRAME-RATE=25.000,CODECS="\(codecs["v1"] ?? "")"
            v1/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=1000000,AVERAGE-BANDWIDTH=900000,RESOLUTION=320x180,FRAME-RATE=25.000,CODECS="\(codecs["v2"] ?? "")"
            v2/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=1000000,RESOLUTION=320x180,FRAME-RATE=25,CODECS="\(codecs["f0"] ?? "")"
            f0/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=1000000,RESOLUTION=320x180,FRAME-RATE=25,CODECS="\(codecs["r0"] ?? "")"
            r0/index.m3u8

            """, to: directory)
        let server = try NginxServer(extraRoots: ["ladder": directory])
        let result = try BufprobeProcess.run(["check", "--json", "--all-variants", server.url("ladder/master.m3u8")])
        let document = try CheckDocument.decode(result.stdout)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(document.verdict == "pass", "\(document.reason)")
        let checks = try #require(document.variantChecks)
        #expect(checks.map(\.index) == [0, 1, 2, 3, 4])
        for check in checks {
            #expect(check.problems.isEmpty, "variant \(check.index): \(check.problems.map(\.message))")
            #expect(check.measured.segmentsMeasured == 3)
            #expect((check.measured.peakBitRate ?? 0) > 0)
            #expect(check.measured.frameRate == 25)
        }
        #expect(checks.map(\.measured.height) == [360, 270, 180, 180, 180])
        // The byte-range variant's sizes are its ranges' lengths: the same segments as v2.
        #expect(checks[4].measured.peakBitRate == checks[2].measured.peakBitRate)
        // Every segment sized is fetched or asked for once: 3 per variant, the fMP4 init section besides.
        let paths = server.requestedPaths()
        #expect(paths.contains("/ladder/f0/init.mp4"), "\(paths)")
        // v1 is not played: opening reads its first two segments, the validation its first three.
        #expect(paths.contains("/ladder/v1/seg002.ts") && !paths.contains("/ladder/v1/seg003.ts"), "only the first 3 segments are measured: \(paths)")
    }

    @Test("mislabelled RESOLUTION, CODECS, FRAME-RATE, BANDWIDTH and a missing playlist are each flagged on their variant")
    func mislabelledLadderIsFlagged() throws {
        let (directory, codecs) = try Self.makeLadder()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.write(
            """
            #EXT-X-STREAM-INF:BANDWIDTH=3000000,RESOLUTION=1920x1080,FRAME-RATE=25.000,CODECS="\(codecs["v0"] ?? "")"
            v0/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2000000,RESOLUTION=480x270,CODECS="hvc1.1.6.L93.B0,mp4a.40.2"
            v1/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=10000,AVERAGE-BANDWIDTH=5000,RESOLUTION=320x180,CODECS="\(codecs["v2"] ?? "")"
            v2/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=5000000,RESOLUTION=640x360,FRAME-RATE=25.000,CODECS="\(codecs["v0"] ?? "")"
            v0/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2000000,RESOLUTION=480x270,FRAME-RATE=60,CODECS="\(codecs["v1"] ?? "")"
            v1/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2000000,RESOLUTION=99999999999x0,FRAME-RATE=nan,CODECS="\(codecs["v1"] ?? "")"
            missing/index.m3u8

            """, to: directory)
        let server = try NginxServer(extraRoots: ["ladder": directory])
        let result = try BufprobeProcess.run(["check", "--json", "--all-variants", server.url("ladder/master.m3u8")])
        let document = try CheckDocument.decode(result.stdout)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(document.verdict == "degraded")
        let checks = try #require(document.variantChecks)
        try #require(checks.count == 6)
        #expect(checks[0].kinds == ["resolution_mismatch"], "\(checks[0].problems)")
        #expect(checks[0].problems.first?.message == "Variant 0 (v0/index.m3u8) declares RESOLUTION=1920x1080 but its video is 640x360.")
        #expect(Set(checks[1].kinds) == ["codecs_mismatch"], "\(checks[1].problems)")
        #expect(Set(checks[2].kinds) == ["bandwidth_exceeded", "average_bandwidth_exceeded"], "\(checks[2].problems)")
        #expect(try #require(checks[2].measured.peakBitRate) > 10_000 * 1.1)
        #expect(checks[3].kinds.isEmpty, "\(checks[3].problems)")
        #expect(checks[4].kinds == ["frame_rate_mismatch"], "\(checks[4].problems)")
        #expect(Set(checks[5].kinds) == ["playlist_failed", "invalid_attribute"], "\(checks[5].problems)")
        #expect(checks[5].problems.first?.message.contains("answered HTTP 404") == true, "\(checks[5].problems)")
        // Each problem is a warning, and the reason names the variants and kinds.
        for check in checks {
            for problem in check.problems { #expect(document.warnings.contains(problem.message)) }
        }
        #expect(document.reason.contains("variant 0: resolution_mismatch"), "\(document.reason)")
        #expect(document.reason.contains("variant 4: frame_rate_mismatch"), "\(document.reason)")

        let text = try BufprobeProcess.run(["check", "--progress", "none", "--all-variants", server.url("ladder/master.m3u8")])
        #expect(text.stdout.contains("0 v0/index.m3u8: resolution_mismatch"), "\(text.stdout)")
        #expect(text.stdout.contains("resolution 1920x1080 -> 640x360"), "\(text.stdout)")
        #expect(text.stdout.contains("3 v0/index.m3u8: OK"), "\(text.stdout)")
    }

    @Test("without --all-variants, variant_checks is null and nothing beyond opening is fetched")
    func withoutOptionIsNull() throws {
        let server = try NginxServer()
        let result = try BufprobeProcess.run(["check", "--json", "--variant", "lowest", server.url("hls/master.m3u8")])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object.keys.contains("variant_checks"))
        #expect(object["variant_checks"] is NSNull)
    }

    @Test("--all-variants on a progressive file validates nothing and says so")
    func progressiveFileSaysSo() throws {
        let server = try NginxServer()
        let result = try BufprobeProcess.run(["check", "--json", "--all-variants", server.url("h264-aac.mp4")])
        let document = try CheckDocument.decode(result.stdout)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(document.variantChecks?.isEmpty == true)
        #expect(document.warnings.contains { $0.contains("not an HLS master playlist or a DASH manifest") }, "\(document.warnings)")
        let text = try BufprobeProcess.run(["check", "--progress", "none", "--all-variants", server.url("h264-aac.mp4")])
        #expect(text.stdout.contains("all variants: none validated\n"), "\(text.stdout)")
        #expect(text.stdout.contains("\n  warning:     --all-variants: "), "\(text.stdout)")
    }

    @Test("with a time budget (the exporter's), variants not reached in it are named in a warning, not failed")
    func budgetEndsValidation() throws {
        let fault = try FaultServer()
        let directory = try CheckServers.temporaryDirectory("bufprobe-budget-variants")
        defer { try? FileManager.default.removeItem(at: directory) }
        var master = "#EXTM3U\n"
        for index in 0..<6 { master += "#EXT-X-STREAM-INF:BANDWIDTH=200000\n\(fault.url("silent/v\(index).m3u8"))\n" }
        try master.write(to: directory.appendingPathComponent("master.m3u8"), atomically: true, encoding: .utf8)
        let server = try NginxServer(extraRoots: ["budget": directory])
        let root = Interrupter(timeout: nil)
        // Each request alone could wait 30 s; the whole validation has 1.5 s.
        let prober = VariantProber(
            source: server.url("budget/master.m3u8"), options: [:], timeout: 30, segments: 1, root: root,
            pacer: Interrupter(timeout: nil), budget: 1.5)
        let outcome = prober.run()
        #expect(outcome.checks.allSatisfy { !$0.problems.contains { $0.kind == .playlistFailed } }, "\(outcome.checks)")
        #expect(outcome.warnings.contains { $0.contains("time budget ran out") && $0.contains("0, 1, 2, 3, 4, 5") }, "\(outcome.warnings)")
    }

    @Test("a silent, dripping, refused or garbage variant is a failed variant, and the check still ends with a verdict")
    func hostileVariantsFail() throws {
        let fault = try FaultServer()
        let directory = try CheckServers.temporaryDirectory("bufprobe-hostile-variants")
        defer { try? FileManager.default.removeItem(at: directory) }
        func media(_ segment: String) -> String {
            "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\n\(segment)\n#EXT-X-ENDLIST\n"
        }
        // 30 kB every 0.2 s: each 64 KiB read is done well within half of --timeout, the whole 337 kB
        // takes 2.4 s, past --timeout.
        try media(fault.url("drip/30000/h264-aac.ts")).write(
            to: directory.appendingPathComponent("drip.m3u8"), atomically: true, encoding: .utf8)
        try media("garbage.ts").write(to: directory.appendingPathComponent("garbage.m3u8"), atomically: true, encoding: .utf8)
        try String(repeating: "not media at all ", count: 4000).write(
            to: directory.appendingPathComponent("garbage.ts"), atomically: true, encoding: .utf8)
        try """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=320x180
            \(fault.url("file/hls/low/index.m3u8"))
            #EXT-X-STREAM-INF:BANDWIDTH=200000
            \(fault.url("silent/a.m3u8"))
            #EXT-X-STREAM-INF:BANDWIDTH=200000
            \(fault.url("pause/10/60/hls/low/index.m3u8"))
            #EXT-X-STREAM-INF:BANDWIDTH=200000
            drip.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=200000
            file:///etc/passwd
            #EXT-X-STREAM-INF:BANDWIDTH=200000
            garbage.m3u8

            """.write(to: directory.appendingPathComponent("master.m3u8"), atomically: true, encoding: .utf8)
        let server = try NginxServer(extraRoots: ["hostile": directory])
        let result = try BufprobeProcess.run(["check", "--json", "--timeout", "2s", "--all-variants", server.url("hostile/master.m3u8")])
        let document = try CheckDocument.decode(result.stdout)
        #expect(result.status == 1 || result.status == 2, "\(result.stderr)")
        let checks = try #require(document.variantChecks)
        try #require(checks.count == 6)
        #expect(checks[0].kinds.allSatisfy { $0 != "playlist_failed" && $0 != "segment_failed" }, "\(checks[0].problems)")
        #expect(checks[0].measured.height == 180)
        #expect(checks[1].kinds == ["playlist_failed"], "\(checks[1].problems)")
        #expect(checks[2].kinds == ["playlist_failed"], "\(checks[2].problems)")
        #expect(checks[2].problems.first?.message.contains("sent nothing in time") == true, "\(checks[2].problems)")
        #expect(checks[3].kinds == ["segment_failed"], "\(checks[3].problems)")
        #expect(checks[3].problems.first?.message.contains("did not arrive within 2.000 s (--timeout)") == true, "\(checks[3].problems)")
        #expect(checks[4].kinds == ["playlist_failed"], "\(checks[4].problems)")
        #expect(checks[4].problems.first?.message.contains("file:///etc/passwd") == true, "\(checks[4].problems)")
        #expect(checks[5].kinds == ["segment_failed"], "\(checks[5].problems)")
        #expect(checks[5].problems.first?.message.contains("does not open as media") == true, "\(checks[5].problems)")
    }
}
