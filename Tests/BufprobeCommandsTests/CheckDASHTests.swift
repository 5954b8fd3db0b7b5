import Foundation
import Testing
import TestSupport

/// DASH made at test time from the reference sample by FFmpeg's `dash` muxer, served by nginx.
@Suite("bufprobe check on DASH")
struct CheckDASHTests {
    /// Two video representations (100 and 300 kbit/s) and one audio, 2 s segments.
    static func makeDASH(in directory: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "ffmpeg", "-v", "error", "-i", BufprobeProcess.sample("h264-aac.mp4"), "-map", "0:v", "-map", "0:v",
            "-map", "0:a", "-c:a", "copy", "-c:v", "libx264", "-threads", "1", "-b:v:0", "100k", "-b:v:1", "300k",
            "-s:v:1", "640x360", "-g", "50", "-keyint_min", "50", "-sc_threshold", "0", "-f", "dash",
            "-seg_duration", "2", "-adaptation_sets", "id=0,streams=v id=1,streams=a",
            directory.appendingPathComponent("manifest.mpd").path,
        ]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CheckServers.ServerError("ffmpeg could not write DASH") }
    }

    @Test("DASH video representations are variants; --variant lowest fetches only the low one's segments after opening")
    func dashVariants() throws {
        let directory = try CheckServers.temporaryDirectory("bufprobe-dash")
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.makeDASH(in: directory)
        let server = try NginxServer(extraRoots: ["dash": directory])
        let result = try BufprobeProcess.run(["check", "--json", "--variant", "lowest", server.url("dash/manifest.mpd")])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try CheckDocument.decode(result.stdout)
        #expect(document.variants.count == 2)
        #expect(document.variants.map(\.height) == [180, 360])
        #expect(document.variants.filter(\.selected).map(\.index) == [0])
        #expect(document.complete)
        // The muxer numbers representations in input order: stream0 is the 100 kbit/s video, stream1 the
        // 300 kbit/s one. Opening probes every representation; after that only the chosen one is read.
        let paths = server.requestedPaths()
        let high = Set(paths.filter { $0.contains("chunk-stream1-") })
        #expect(high.count <= 1, "\(paths)")
        #expect(paths.filter { $0.contains("chunk-stream0-") }.count >= 5, "\(paths)")
    }
}
