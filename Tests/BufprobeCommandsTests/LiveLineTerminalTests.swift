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

    @Test("simulate --abr --speed colors each loaded segment by its variant and names the fetched one; without color, glyphs tell them apart")
    func variantColors() throws {
        let master = try writeLadder(rates: [500_000, 1_000_000, 2_000_000], segments: 60)
        defer { try? FileManager.default.removeItem(atPath: (master as NSString).deletingLastPathComponent) }
        // Plenty, then scarce, then plenty again: the rule climbs, falls and climbs.
        let trace = (master as NSString).deletingLastPathComponent + "/trace.txt"
        try "0 4\n20 0.7\n45 4\n".write(toFile: trace, atomically: true, encoding: .utf8)
        let command = "'\(binary)' simulate '\(master)' --abr throughput --trace '\(trace)' --speed 10 --max-buffer 20s"
        let tmux = Tmux()
        defer { tmux.stop() }
        try tmux.start("\(command) --color 16 > /dev/null; echo EXIT=$?; sleep 60", width: 160)
        _ = try tmux.waitFor("Playing")
        var frames: [String] = []
        for _ in 0..<20 {
            if let first = try tmux.screen(escapes: true).first, first.contains("Playing") { frames.append(first) }
            usleep(300_000)
        }
        let done = try tmux.waitFor("EXIT=")
        #expect(done.contains("EXIT=0"), "\(done)")
        // Loaded segments in the variants' colors (red, yellow, green, lowest first), heights as glyphs.
        let colored = frames.joined()
        #expect(colored.contains("\u{1B}[31m▂") || colored.contains("\u{1B}[31m█"), "the lowest variant in red: \(frames.last ?? "")")
        #expect(colored.contains("\u{1B}[32m▇") || colored.contains("\u{1B}[32m█"), "the top variant in green")
        #expect(frames.contains { $0.contains("/3 ") && $0.contains("Mbit/s") }, "a legend names the fetched variant")
        #expect(frames.contains { $0.contains(" 3/3 2.0 Mbit/s") } && frames.contains { $0.contains(" 1/3 500 kbit/s") || $0.contains(" 2/3 1.0 Mbit/s") })

        let plain = Tmux()
        defer { plain.stop() }
        try plain.start("NO_COLOR=1 \(command) > /dev/null; echo EXIT=$?; sleep 60", width: 160)
        _ = try plain.waitFor("Playing")
        usleep(1_500_000)
        let line = try plain.screen(escapes: true).first ?? ""
        #expect(!line.contains("\u{1B}["), "\(line)")
        #expect(line.contains("▇") || line.contains("▅") || line.contains("▂"), "the variants' glyphs without color: \(line)")
    }
}
