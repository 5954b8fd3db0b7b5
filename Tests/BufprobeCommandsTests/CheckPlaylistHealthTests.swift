import Foundation
import Testing
import TestSupport

/// Live playlist health end to end on `live_playlist_server.py`'s playlists (redirecting, hostile). Its
/// advancing, then frozen, then regressing playlist is recorded once and replayed (`CheckEventReplayTests`).
@Suite("bufprobe check: live playlist health")
struct CheckPlaylistHealthTests {
    @Test("a variant playlist that redirects is watched under the URL asked for, and its segments still load next to where it redirected")
    func redirectedPlaylist() throws {
        let directory = try CheckServers.temporaryDirectory("bufprobe-live-redirect")
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.makeSegments(in: directory, count: 6)
        let server = try FaultServer(script: "live_playlist_server.py", root: directory.path)
        let result = try BufprobeProcess.run(["check", "--json", "--duration", "3", server.url("redirecting.m3u8")], timeout: 30)
        let document = try CheckDocument.decode(result.stdout)
        // Copying the playlist must not hide the redirect from the demuxer (segments would 404 next to moved/).
        #expect(result.status != 2, "\(document.reason)")
        // The server's URLs taken out first: a port such as 40461 holds "404" too.
        let unnamed = document.warnings.map { $0.replacingOccurrences(of: server.url(""), with: "") }
        #expect(!unnamed.contains { $0.contains("404") }, "\(document.warnings)")
        #expect(document.loadedRanges.reduce(0) { $0 + $1[1] - $1[0] } >= 2, "\(document.loadedRanges)")
        let health = try #require(document.playlistHealth)
        #expect(health.url == server.url("moved/live.m3u8"))
        #expect(health.reloads >= 2, "\(health.reloads)")
    }

    @Test("a live playlist with numbers at the edges of 64-bit integers and doubles gives warnings, never a trap")
    func hostileNumbers() throws {
        let directory = try CheckServers.temporaryDirectory("bufprobe-live-hostile")
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.makeSegments(in: directory, count: 3)
        let server = try FaultServer(script: "live_playlist_server.py", root: directory.path)
        let result = try BufprobeProcess.run(["check", "--json", "--duration", "4", server.url("hostile.m3u8")], timeout: 30)
        #expect([0, 1, 2].contains(result.status), "\(result.stderr)")
        let document = try CheckDocument.decode(result.stdout)
        let health = try #require(document.playlistHealth)
        #expect(health.reloads >= 3, "\(health.reloads)")
        let counts = try Self.counts(in: result.stdout)
        #expect((counts["parse_error"] ?? 0) >= 1, "\(counts)")
        #expect(health.events.allSatisfy { !$0.message.isEmpty && $0.playlist == server.url("hostile.m3u8") })
    }

    @Test("inputs that are not live HLS have playlist_health null")
    func notLive() throws {
        let server = try FaultServer()
        let result = try BufprobeProcess.run(["check", "--json", server.url("file/hls/low/index.m3u8")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"playlist_health\" : null"), "\(result.stdout)")
        #expect(try CheckDocument.decode(result.stdout).playlistHealth == nil)
    }

    /// `count` MPEG-TS segments of 1 s each (`seg000.ts`...), continuous timestamps, made by ffmpeg.
    static func makeSegments(in directory: URL, count: Int) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.currentDirectoryURL = directory
        process.arguments = [
            "ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=96x64:rate=10", "-f", "lavfi",
            "-i", "sine=frequency=440:sample_rate=22050", "-t", "\(count)", "-c:v", "libx264", "-preset", "ultrafast",
            "-g", "10", "-keyint_min", "10", "-sc_threshold", "0", "-c:a", "aac", "-b:a", "32k", "-f", "hls",
            "-hls_time", "1", "-hls_list_size", "0", "-hls_segment_filename", "seg%03d.ts", "made.m3u8",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CheckServers.ServerError("ffmpeg could not make the segments") }
    }

    /// `playlist_health.counts` as written (read without key conversion, which would touch the names).
    static func counts(in json: String) throws -> [String: Int] {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let health = object?["playlist_health"] as? [String: Any]
        return health?["counts"] as? [String: Int] ?? [:]
    }
}
