public import Foundation
public import MediaIO

/// A real live HLS source for tests: `ffmpeg -re` writing 2 s segments (6 listed, with
/// `EXT-X-PROGRAM-DATE-TIME`) into a temporary directory that nginx serves; both stopped when released.
/// The same source as the demo origin's (`scripts/demo-origin.sh`), from the same argument file.
public final class LiveHLSSource {
    /// Where ffmpeg writes.
    public let directory: URL
    /// The server.
    public let nginx: NginxServer
    private let encoder: Process

    /// Starts ffmpeg and nginx; the playlist appears about 2 s later.
    public init() throws {
        directory = try CheckServers.temporaryDirectory("bufprobe-live-hls")
        encoder = Process()
        encoder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        encoder.currentDirectoryURL = directory
        encoder.arguments = ["ffmpeg"] + (try Self.encoderArguments())
        encoder.standardOutput = FileHandle.nullDevice
        encoder.standardError = FileHandle.nullDevice
        try encoder.run()
        nginx = try NginxServer(extraRoots: ["live": directory])
    }

    deinit {
        // SIGKILL: a child of the test process inherits its blocked SIGTERM and SIGINT.
        kill(encoder.processIdentifier, SIGKILL)
        encoder.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The demo origin's ffmpeg arguments (`scripts/demo-origin/live-hls.args`, one per line), the one
    /// description of the live source for the tests and `scripts/demo-origin.sh`.
    public static func encoderArguments() throws -> [String] {
        let file = BufprobeProcess.packageRoot.appendingPathComponent("scripts/demo-origin/live-hls.args")
        return try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// The playlist's URL.
    public var url: String { nginx.url("live/index.m3u8") }

    /// The playlist as written now.
    public func playlist() -> HLSPlaylist? {
        guard let text = try? String(contentsOf: directory.appendingPathComponent("index.m3u8"), encoding: .utf8) else { return nil }
        return try? HLSPlaylist.parse(text)
    }

    /// Waits until the playlist lists `count` segments, then until the next one is added: the returned
    /// playlist is at most a few tens of milliseconds old, so a check started now reads the same one.
    public func freshPlaylist(listing count: Int) throws -> HLSPlaylist {
        let deadline = Date().addingTimeInterval(40)
        while (playlist()?.segments.count ?? 0) < count {
            guard Date() < deadline else { throw CheckServers.ServerError("the live playlist never listed \(count) segments") }
            usleep(50_000)
        }
        let sequence = playlist()?.segments.last?.sequence
        while true {
            guard Date() < deadline else { throw CheckServers.ServerError("the live playlist stopped growing") }
            if let now = playlist(), now.segments.last?.sequence != sequence { return now }
            usleep(20_000)
        }
    }
}

