import Foundation
import Testing
import TestSupport

/// What a hostile server or file name can make bufprobe write, and what happens when the output itself
/// fails: visible escapes instead of control characters, one sentence and exit 74 instead of a trap.
@Suite("Output safety: escapes and write errors", .serialized)
struct OutputSafetyTests {
    let binary = BufprobeProcess.executable.path

    /// Any byte that a terminal obeys: C0 other than newline, DEL, and C1 (U+0080...U+009F).
    static func rawControls(_ text: String) -> [String] {
        text.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
            .map { String(format: "U+%04X", $0.value) }
    }

    @Test("a reason phrase and segment URIs full of control sequences reach the terminal as visible escapes", arguments: [
        ["check"], ["check", "--json"], ["probe"], ["probe", "--json"],
    ])
    func hostileServerText(command: [String]) throws {
        let server = try FaultServer(script: "escape_server.py")
        for path in ["reason/404", "hls/index.m3u8"] {
            let result = try BufprobeProcess.run(command + [server.url(path)])
            #expect(result.status == 2, "\(command) \(path): \(result.stderr)")
            #expect(Self.rawControls(result.stdout).isEmpty, "\(command) \(path) stdout: \(Self.rawControls(result.stdout))")
            #expect(Self.rawControls(result.stderr).isEmpty, "\(command) \(path) stderr: \(Self.rawControls(result.stderr))")
            if command == ["check"] {
                #expect(result.stderr.contains(#"\x1b]0;pwned\x07\x1b[2J\u{9b}31mred\x7f"#), "\(result.stderr)")
            }
            if command.contains("--json") {
                // Still valid JSON, the characters themselves kept (as \u escapes).
                let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
                if command[0] == "check", let report = document as? [String: Any], let reason = report["reason"] as? String {
                    #expect(reason.contains("\u{1B}]0;pwned\u{7}\u{1B}[2J\u{9B}31mred\u{7F}"), "\(reason)")
                }
            }
        }
    }

    @Test("a file name with control characters is escaped in the report and the error sentence")
    func hostileFileName() throws {
        let directory = try CheckServers.temporaryDirectory("bufprobe-escape")
        defer { try? FileManager.default.removeItem(at: directory) }
        let name = "clip\u{1B}]0;pwned\u{7}\u{9B}2J.mp4"
        let path = directory.appendingPathComponent(name).path
        try FileManager.default.copyItem(atPath: BufprobeProcess.sample("h264-aac.mp4"), toPath: path)
        let good = try BufprobeProcess.run(["probe", "--progress", "tty", path])
        #expect(good.status == 0)
        #expect(Self.rawControls(good.stdout).isEmpty, "\(Self.rawControls(good.stdout))")
        #expect(good.stdout.contains(#"clip\x1b]0;pwned\x07\u{9b}2J.mp4"#))
        // The live line's own escape codes stay; the title's are made visible.
        #expect(!good.stderr.contains("\u{1B}]0;") && !good.stderr.contains("\u{9B}"), "\(good.stderr)")
        let missing = try BufprobeProcess.run(["probe", path + "\u{1B}[2J"])
        #expect(missing.status == 2)
        #expect(Self.rawControls(missing.stderr).isEmpty, "\(missing.stderr)")
        #expect(missing.stderr.hasPrefix("error: "))
    }

    /// Runs `script` with `sh -c`, bufprobe as `$0`; the exit status and stderr.
    private func shell(_ script: String) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, binary, BufprobeProcess.sample("h264-aac.mp4")]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test("a full or closed stdout ends with one error sentence and exit 74, never a signal", arguments: [
        "exec \"$0\" probe \"$1\" > /dev/full",
        "exec \"$0\" probe --json \"$1\" > /dev/full",
        "exec \"$0\" probe \"$1\" >&-",
        "exec \"$0\" --help > /dev/full",
        "exec \"$0\" simulate --bitrate 1Mbit --duration 5s --bandwidth 2Mbit > /dev/full",
    ])
    func failingStdout(script: String) throws {
        let (status, stderr) = try shell(script)
        #expect(status == 74, "\(script): \(status) \(stderr)")
        let lines = stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines.first?.hasPrefix("error: ") == true, "\(stderr)")
        #expect(stderr.contains("standard output"))
    }

    @Test("a pipe whose reader left, with SIGPIPE ignored, ends with one sentence and exit 74")
    func closedPipe() throws {
        let output = try Samples.run("python3", ["-c", """
            import signal, subprocess, sys
            child = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     preexec_fn=lambda: signal.signal(signal.SIGPIPE, signal.SIG_IGN))
            child.stdout.close()
            err = child.stderr.read()
            child.wait()
            print(child.returncode)
            sys.stdout.write(err.decode())
            """, binary, "probe", "--json", BufprobeProcess.sample("h264-aac.mp4")])
        let lines = output.split(separator: "\n")
        #expect(lines.first == "74", "\(output)")
        #expect(lines.count == 2 && lines.last?.contains("Broken pipe") == true, "\(output)")
    }

    @Test("a closed stderr loses only the diagnostics: the report is written and the exit code is the usual one")
    func closedStderr() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \"$0\" probe \"$1\" /nonexistent.ts 2>&-", binary, BufprobeProcess.sample("h264-aac.mp4")]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 2)
        #expect(String(decoding: data, as: UTF8.self).contains("h264-aac.mp4"))
    }
}
