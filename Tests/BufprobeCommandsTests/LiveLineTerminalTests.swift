import Foundation
import Testing
import TestSupport

@Suite("The live line in a real terminal (tmux)", .serialized)
struct LiveLineTerminalTests {
    let binary = BufprobeProcess.executable.path

    @Test("probe on a slow input shows exactly one status line that changes, then erases it for the summary")
    func oneChangingLine() throws {
        let input = try SlowInput(sample: "h264-aac.ts", bytesPerSecond: 60_000)
        let tmux = Tmux()
        defer { tmux.stop() }
        try tmux.start("'\(binary)' probe '\(input.path)'; echo EXIT=$?; sleep 60")
        _ = try tmux.waitFor("Reading")
        var frames: [String] = []
        for _ in 0..<4 {
            let lines = try tmux.screen()
            #expect(lines.count == 1, "exactly one status line while reading: \(lines)")
            if let first = lines.first { frames.append(first) }
            usleep(700_000)
        }
        #expect(frames.allSatisfy { $0.hasPrefix("Reading") }, "\(frames)")
        #expect(Set(frames).count >= 2, "the line changes as data arrives: \(frames)")
        let done = try tmux.waitFor("EXIT=")
        #expect(done.contains("EXIT=0"), "\(done)")
        #expect(done.first?.hasSuffix(".ts") == true, "the summary starts where the line was: \(done)")
        #expect(!done.contains { $0.hasPrefix("Reading") || $0.hasPrefix("Loading") }, "the line is erased: \(done)")
        #expect(done.contains { $0.contains("loaded") })
    }

    @Test("Ctrl-C leaves a final frame saying Interrupted, a visible cursor and exit code 130")
    func interrupt() throws {
        let input = try SlowInput(sample: "h264-aac.ts", bytesPerSecond: 20_000)
        let tmux = Tmux()
        defer { tmux.stop() }
        try tmux.start("'\(binary)' probe '\(input.path)'; echo EXIT=$?; sleep 60")
        _ = try tmux.waitFor("Reading")
        try tmux.run(["send-keys", "-t", "t", "C-c"])
        let lines = try tmux.waitFor("EXIT=", timeout: 5)
        #expect(lines.contains("EXIT=130"), "\(lines)")
        #expect(lines.first?.hasPrefix("Interrupted") == true, "\(lines)")
        let cursor = try tmux.run(["display-message", "-p", "-t", "t", "#{cursor_flag}"])
        #expect(cursor.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "cursor visible after Ctrl-C")
    }

    @Test("piped output and --progress none carry no escape codes", arguments: [
        ["probe", "--progress", "none"], ["probe"], ["probe", "--json"], ["probe", "--progress", "plain"],
    ])
    func noEscapeCodesWhenPiped(arguments: [String]) throws {
        let result = try BufprobeProcess.run(
            arguments + [BufprobeProcess.sample("h264-aac.mp4"), BufprobeProcess.sample("truncated.ts")])
        #expect(result.status == 3)
        #expect(!result.stdout.contains("\u{1B}"))
        #expect(!result.stderr.contains("\u{1B}"))
    }

    @Test("--progress tty forces the line even into a pipe; TERM=dumb in auto mode does not")
    func forcedTTY() throws {
        let forced = try BufprobeProcess.run(["probe", "--progress", "tty", BufprobeProcess.sample("h264-aac.mp4")])
        #expect(forced.status == 0)
        #expect(forced.stderr.contains("\u{1B}[?25h"), "the cursor is restored")
        let dumb = try BufprobeProcess.run(["probe", BufprobeProcess.sample("h264-aac.mp4")], environment: ["TERM": "dumb"])
        #expect(!dumb.stderr.contains("\u{1B}"))
    }
}
