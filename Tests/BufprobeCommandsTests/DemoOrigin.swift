import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `scripts/demo-origin.sh` running on 127.0.0.1, its temporary directory under one of the test's own.
final class DemoOrigin {
    let port: Int
    let temporary: URL
    private let process: Process
    private let output = Pipe()

    init(port: Int) throws {
        self.port = port
        temporary = try CheckServers.temporaryDirectory("bufprobe-demo-test")
        process = Process()
        // Through Python, which clears the signal mask first: a child inherits the test process's blocked
        // SIGTERM and SIGINT, and the script, nginx and ffmpeg must see them as they do from a terminal.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c", "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv(sys.argv[1], sys.argv[1:])",
            BufprobeProcess.packageRoot.appendingPathComponent("scripts/demo-origin.sh").path,
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["BUFPROBE_DEMO_PORT"] = String(port)
        environment["TMPDIR"] = temporary.path
        process.environment = environment
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while !CheckServers.accepts(port: port) {
            guard process.isRunning, Date() < deadline else { throw CheckServers.ServerError("the demo origin did not start") }
            usleep(20_000)
        }
    }

    /// The live playlist's text as the origin serves it, read with curl.
    func livePlaylist() -> String {
        let run = try? BufprobeProcess.run(
            URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "http://127.0.0.1:\(port)/live/index.m3u8"], timeout: 5)
        return run?.stdout ?? ""
    }

    /// Waits until the live playlist lists `count` segments (a live check starts 3 target durations behind).
    func waitForLiveSegments(_ count: Int) throws {
        let deadline = Date().addingTimeInterval(30)
        while livePlaylist().components(separatedBy: "#EXTINF").count - 1 < count {
            guard Date() < deadline else { throw CheckServers.ServerError("the live playlist never listed \(count) segments") }
            usleep(200_000)
        }
    }

    /// SIGTERM, as a terminal's Ctrl-C or a service manager stops it; returns its exit status.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: temporary)
    }
}
