import Foundation
import Testing
import TestSupport

/// `bufprobe check` against `Fixtures/fault_server.py`, which misbehaves on purpose.
@Suite("bufprobe check against a faulty server")
struct CheckFaultTests {
    static let file = "h264-aac.mp4"

    /// An HLS playlist and a DASH manifest are read by bufprobe before FFmpeg opens them: a request with no
    /// answer within --timeout fails the check then, where FFmpeg's open used to ask again and wait as long.
    @Test("a server that accepts and never answers fails within --timeout + 1 s, with one sentence", arguments: [file, "live.m3u8", "live.mpd"])
    func silentServerTimesOut(path: String) throws {
        let server = try FaultServer()
        let url = server.url("silent/\(path)")
        let result = try BufprobeProcess.run(["check", "--json", "--timeout", "2", url], timeout: 3)
        #expect(result.status == 2, "\(result.stderr)")
        let document = try CheckDocument.decode(result.stdout)
        #expect(document.verdict == "fail")
        #expect(document.reason == "\(url) could not be opened: nothing arrived within the 2.000 s timeout (--timeout).", "\(document.reason)")
    }

    @Test("a body that stops for 5 s mid-way stalls once, at the media time where the data stopped")
    func pauseStallsAtTheRightPosition() throws {
        let cut: Int64 = 100_000
        let prediction = try CheckPrediction(path: BufprobeProcess.sample(Self.file))
        let expected = try #require(prediction.playableEnd(receivedBytes: cut))
        let server = try FaultServer()
        let result = try BufprobeProcess.run(["check", "--json", server.url("pause/\(cut)/5/\(Self.file)")])
        let document = try CheckDocument.decode(result.stdout)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(document.verdict == "degraded")
        #expect(document.stallCount == 1)
        let stall = try #require(document.stalls.first)
        // One audio frame (21 ms) or video frame (40 ms) either way is the same position to a viewer.
        #expect(abs(stall.position - expected) <= 0.05, "stalled at \(stall.position), data stopped at \(expected)")
        #expect(document.complete)
    }

    @Test("a connection closed mid-body fails, saying how many bytes of how many arrived")
    func closeMidBodyFails() throws {
        let server = try FaultServer()
        let result = try BufprobeProcess.run(["check", "--json", server.url("close/100000/\(Self.file)")])
        #expect(result.status == 2, "\(result.stderr)")
        let document = try CheckDocument.decode(result.stdout)
        #expect(document.verdict == "fail")
        #expect(document.reason.contains("ended early"), "\(document.reason)")
        #expect(document.reason.contains("100000 of 267227 bytes"), "\(document.reason)")
        #expect(!document.complete)
    }

    @Test("an HTTP error answer fails, naming the status", arguments: [404, 500, 503])
    func httpErrorFails(status: Int) throws {
        let server = try FaultServer()
        let result = try BufprobeProcess.run(["check", "--progress", "none", server.url("status/\(status)/\(Self.file)")])
        #expect(result.status == 2)
        #expect(result.stderr.contains("HTTP \(status)"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    @Test("an HLS playlist whose segment answers 404 fails, naming the segment")
    func missingSegmentFails() throws {
        let server = try FaultServer()
        let result = try BufprobeProcess.run(["check", "--json", server.url("missing/seg002.ts/hls/low/index.m3u8")])
        #expect(result.status == 2, "\(result.stderr)")
        let document = try CheckDocument.decode(result.stdout)
        #expect(document.verdict == "fail")
        #expect(document.reason.contains("seg002.ts"), "\(document.reason)")
        #expect(document.reason.contains("404"), "\(document.reason)")
    }

    @Test("a segment that fails in a variant that is not played does not fail the check")
    func unplayedVariantSegmentIgnored() throws {
        let server = try FaultServer()
        // Opening probes the first segment of every variant, so the low one's 404 is logged; the high one plays.
        let result = try BufprobeProcess.run(["check", "--json", server.url("missing/low:seg000.ts/hls/master.m3u8")])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try CheckDocument.decode(result.stdout)
        #expect(document.verdict == "pass", "\(document.reason)")
        #expect(document.variants.filter(\.selected).map(\.index) == [1])
    }

    @Test("a master playlist with a variant playlist that answers 404 is degraded, naming that playlist")
    func brokenVariantPlaylistDegrades() throws {
        let server = try FaultServer()
        let result = try BufprobeProcess.run(["check", "--json", server.url("missing/high:index.m3u8/hls/master.m3u8")])
        #expect(result.status == 1, "\(result.stderr)")
        let document = try CheckDocument.decode(result.stdout)
        #expect(document.verdict == "degraded")
        #expect(document.reason.contains("high/index.m3u8 answered HTTP 404"), "\(document.reason)")
        #expect(document.complete)
    }

    @Test("Ctrl-C stops a check waiting on a silent server at once, with exit code 130")
    func interruptExits130() throws {
        let server = try FaultServer()
        let process = Process()
        process.executableURL = BufprobeProcess.executable
        process.arguments = ["check", "--progress", "plain", "--timeout", "60", server.url("silent/\(Self.file)")]
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        // The first status line comes once the interrupt handler is installed and the check is waiting
        // on the silent server.
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("Loading"),
            let chunk = try errors.fileHandleForReading.read(upToCount: 1), !chunk.isEmpty
        {
            seen.append(chunk)
        }
        kill(process.processIdentifier, SIGINT)
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
    }

    @Test("--header and --user-agent reach the server, for HLS segments too", arguments: [
        (["--header", "X-Token: secret"], "requires/X-Token/secret/hls/low/index.m3u8"),
        (["--user-agent", "bufprobe-test"], "requires/User-Agent/bufprobe-test/h264-aac.mp4"),
        ([], "requires/X-Token/secret/h264-aac.mp4"),
    ])
    func headersReachServer(options: [String], path: String) throws {
        let server = try FaultServer()
        let result = try BufprobeProcess.run(["check", "--json"] + options + [server.url(path)])
        let document = try CheckDocument.decode(result.stdout)
        if options.isEmpty {
            #expect(result.status == 2)
            #expect(document.reason.contains("HTTP 403"), "\(document.reason)")
        } else {
            #expect(result.status == 0, "\(result.stderr)")
            #expect(document.complete, "\(document.reason)")
        }
    }

    @Test("a body that stops for longer than --timeout fails, saying where the data stopped")
    func pauseLongerThanTimeoutFails() throws {
        let server = try FaultServer()
        let result = try BufprobeProcess.run(["check", "--json", "--timeout", "1", server.url("pause/100000/5/\(Self.file)")], timeout: 4)
        #expect(result.status == 2, "\(result.stderr)")
        let document = try CheckDocument.decode(result.stdout)
        #expect(document.verdict == "fail")
        #expect(document.reason.contains("no data for 1.000 s"), "\(document.reason)")
        #expect(!document.complete)
    }

    @Test("Ctrl-C on a terminal leaves the Interrupted frame, shows the cursor again, prints the report marked interrupted and exits 130")
    func interruptOnTerminal() throws {
        let server = try FaultServer()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", FixtureServer.fixtures.appendingPathComponent("pty_interrupt.py").path, "--after", "5", "--when", "Loading",
            BufprobeProcess.executable.path, "check", "--timeout", "60", server.url("silent/\(Self.file)"),
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm-256color"
        environment["LANG"] = "C.UTF-8"
        environment.removeValue(forKey: "NO_COLOR")
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix("EXIT 130\n"), "\(text.prefix(200))")
        #expect(text.contains("Interrupted"))
        // The cursor was hidden while the line was shown and is visible again from the final frame on,
        // before the report of what was measured (nothing, here: the server never answered).
        let hidden = try #require(text.range(of: "\u{1B}[?25l", options: .backwards), "\(text.debugDescription)")
        let shown = try #require(text.range(of: "\u{1B}[?25h", options: .backwards), "\(text.debugDescription)")
        #expect(hidden.upperBound <= shown.lowerBound, "\(text.debugDescription)")
        let report = text[shown.upperBound...]
        #expect(report.contains("  interrupted: stopped after "), "\(report.debugDescription)")
        #expect(!report.contains("\u{1B}["), "the report is plain text after the line: \(report.debugDescription)")
    }
}
