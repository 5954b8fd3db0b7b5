import Foundation
import Testing
import TestSupport

/// Signals in a real terminal (tmux): every ending signal leaves a final frame, a visible cursor, a
/// cooked terminal and exit status 128 + N; Ctrl-Z gives the terminal back while stopped (probe and
/// check: line erased, cursor shown; `simulate --interactive`: cooked mode too) and takes it again when
/// continued.
@Suite("Signals in a real terminal (tmux)", .serialized)
struct TerminalSignalTests {
    let binary = BufprobeProcess.executable.path

    /// A file the test's shell writes the bufprobe process id to.
    private final class PIDFile {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bufprobe-pid-\(UUID().uuidString)").path
        deinit { unlink(path) }

        func pid(timeout: Double = 10) -> pid_t? {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if let text = try? String(contentsOfFile: path, encoding: .utf8),
                    let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
                {
                    return pid
                }
                usleep(50_000)
            }
            return nil
        }

        /// `sh -c` that records its pid, then becomes `command` (same pid).
        func wrap(_ command: String) -> String {
            "sh -c 'echo $$ > \(path); exec \(command)'"
        }
    }

    /// Waits up to 10 s for `pid` to be stopped (Ctrl-Z); whether it is.
    private func waitUntilStopped(_ pid: pid_t) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while state(of: pid) != "T", Date() < deadline { usleep(50_000) }
        return state(of: pid) == "T"
    }

    /// The process's state letter from /proc (R, S, T for stopped...).
    private func state(of pid: pid_t) -> Character? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        return stat[stat.index(close, offsetBy: 2)...].first
    }

    @Test("SIGTERM, SIGHUP and SIGQUIT leave an Interrupted frame, a visible cursor and exit 128 + N", arguments: [
        (SIGTERM, 143), (SIGHUP, 129), (SIGQUIT, 131),
    ])
    func endingSignals(signal: Int32, status: Int) throws {
        let input = try SlowInput(sample: "h264-aac.ts", bytesPerSecond: 20_000)
        let pidFile = PIDFile()
        let tmux = Tmux()
        defer { tmux.stop() }
        try tmux.start(pidFile.wrap("\(binary) probe \(input.path)") + "; echo EXIT=$?; sleep 60")
        _ = try tmux.waitFor("Reading")
        let pid = try #require(pidFile.pid())
        kill(pid, signal)
        let lines = try tmux.waitFor("EXIT=", timeout: 10)
        #expect(lines.contains("EXIT=\(status)"), "\(lines)")
        #expect(lines.first?.hasPrefix("Interrupted") == true, "\(lines)")
        #expect(try tmux.cursorVisible(), "cursor visible after signal \(signal)")
    }

    @Test("Ctrl-C during probe --json writes the partial report (complete false, a warning) and exits 130")
    func interruptedJSON() throws {
        let input = try SlowInput(sample: "h264-aac.ts", bytesPerSecond: 20_000)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("bufprobe-partial-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: output) }
        let tmux = Tmux()
        defer { tmux.stop() }
        try tmux.start("'\(binary)' probe --json '\(input.path)' > '\(output.path)'; echo EXIT=$?; sleep 60")
        _ = try tmux.waitFor("live")
        try tmux.run(["send-keys", "-t", "t", "C-c"])
        let lines = try tmux.waitFor("EXIT=", timeout: 10)
        #expect(lines.contains("EXIT=130"), "\(lines)")
        #expect(lines.first?.hasPrefix("Interrupted") == true, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("warning: ") && $0.contains("interrupted") }, "\(lines)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any], "a JSON document")
        #expect(report["complete"] as? Bool == false)
        #expect((report["warnings"] as? [String])?.contains { $0.contains("interrupted") } == true, "\(report["warnings"] ?? "")")
        #expect(((report["loaded_ranges"] as? [Any])?.count ?? 0) > 0, "what was read is reported")
    }

    @Test("Ctrl-Z during probe erases the line and shows the cursor while stopped; fg draws it again", arguments: ["probe", "check --rate 1x"])
    func suspended(command: String) throws {
        let input = try SlowInput(sample: "h264-aac.ts", bytesPerSecond: 20_000)
        let pidFile = PIDFile()
        let tmux = Tmux()
        defer { tmux.stop() }
        try tmux.start("trap '' TSTP; " + pidFile.wrap("\(binary) \(command) \(input.path)") + " > /dev/null; echo EXIT=$?; sleep 60")
        _ = try tmux.waitFor(command == "probe" ? "Reading" : "Loading")
        #expect(try !tmux.cursorVisible(), "the line hides the cursor while it runs")
        let pid = try #require(pidFile.pid())
        try tmux.run(["send-keys", "-t", "t", "C-z"])
        #expect(waitUntilStopped(pid), "stopped")
        #expect(try tmux.cursorVisible(), "the cursor is visible while stopped")
        #expect(try tmux.screen().allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty }, "the line is erased")
        kill(pid, SIGCONT)
        let resumed = Date().addingTimeInterval(10)
        while (try? tmux.cursorVisible()) == true, Date() < resumed { usleep(50_000) }
        #expect(try !tmux.cursorVisible(), "the line is back after fg")
        kill(pid, SIGINT)
        let lines = try tmux.waitFor("EXIT=", timeout: 10)
        #expect(lines.contains("EXIT=130"), "\(lines)")
        #expect(try tmux.cursorVisible())
    }

    private func interactiveCommand(_ pidFile: PIDFile) -> String {
        // The outer shell ignores Ctrl-Z itself, so only bufprobe stops (the pane has no job control).
        "trap '' TSTP; " + pidFile.wrap("\(binary) simulate --bitrate 1Mbit --duration 10m --bandwidth 2Mbit --interactive")
            + "; echo EXIT=$?; sleep 60"
    }

    @Test("SIGTERM during simulate --interactive gives back a cooked terminal and a visible cursor, exit 143")
    func interactiveTerminated() throws {
        let pidFile = PIDFile()
        let tmux = Tmux()
        defer { tmux.stop() }
        try tmux.start(interactiveCommand(pidFile))
        _ = try tmux.waitFor("Playing")
        #expect(try !tmux.isCooked(), "raw while it runs")
        let pid = try #require(pidFile.pid())
        kill(pid, SIGTERM)
        let lines = try tmux.waitFor("EXIT=", timeout: 10)
        #expect(lines.contains("EXIT=143"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("Interrupted") }, "\(lines)")
        #expect(try tmux.isCooked())
        #expect(try tmux.cursorVisible())
    }

    @Test("Ctrl-Z in simulate --interactive restores the terminal while stopped and takes it again when continued")
    func interactiveSuspended() throws {
        let pidFile = PIDFile()
        let tmux = Tmux()
        defer { tmux.stop() }
        try tmux.start(interactiveCommand(pidFile))
        _ = try tmux.waitFor("Playing")
        let pid = try #require(pidFile.pid())
        try tmux.run(["send-keys", "-t", "t", "C-z"])
        #expect(waitUntilStopped(pid), "stopped")
        #expect(try tmux.isCooked(), "the terminal is cooked while stopped")
        #expect(try tmux.cursorVisible(), "and the cursor visible")
        kill(pid, SIGCONT)
        let resumed = Date().addingTimeInterval(10)
        while (try? tmux.isCooked()) == true, Date() < resumed { usleep(50_000) }
        #expect(try !tmux.isCooked(), "raw again after fg")
        try tmux.run(["send-keys", "-t", "t", "q"])
        let lines = try tmux.waitFor("EXIT=", timeout: 10)
        #expect(lines.contains("EXIT=0"), "q is read as a key again: \(lines)")
        #expect(try tmux.isCooked())
        #expect(try tmux.cursorVisible())
    }
}

/// `check --parallel` in a real terminal: one row per running input, each titled.
@Suite("check --parallel in a real terminal (tmux)", .serialized)
struct CheckParallelTerminalTests {
    let binary = BufprobeProcess.executable.path

    @Test("check --parallel 2 shows one titled row per running input, and each input's final frame at the end", arguments: [100, 80])
    func oneRowPerInput(width: Int) throws {
        let rate = 60_000
        let server = try NginxServer(rates: [rate])
        let first = server.url("h264-aac.mp4", bytesPerSecond: rate)
        let second = server.url("h264-aac.ts", bytesPerSecond: rate)
        let tmux = Tmux()
        defer { tmux.stop() }
        try tmux.start("'\(binary)' check --parallel 2 '\(first)' '\(second)' > /dev/null; echo EXIT=$?; sleep 60", width: width)
        var both: [String] = []
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let lines = try tmux.screen()
            if lines.count == 2, lines.contains(where: { $0.contains("aac.mp4") }), lines.contains(where: { $0.contains("aac.ts") }) {
                both = lines
                break
            }
            usleep(100_000)
        }
        let screen = try tmux.screen()
        #expect(both.count == 2, "two rows while both run: \(screen)")
        #expect(both.allSatisfy { $0.hasPrefix("Loading") || $0.hasPrefix("Playing") || $0.hasPrefix("Stalled") }, "\(both)")
        // The title is cut in the middle: the start of the host and the whole file name stay.
        #expect(both.allSatisfy { $0.contains(" 127.0") }, "\(both.joined(separator: "\n"))")
        #expect(both.contains { $0.contains("h264-aac.mp4 ") } && both.contains { $0.contains("h264-aac.ts ") }, "\(both)")
        let done = try tmux.waitFor("EXIT=", timeout: 30)
        #expect(done.contains("EXIT=0") || done.contains("EXIT=1"), "\(done)")
        let finals = done.filter { $0.hasPrefix("Ended") || $0.hasPrefix("Failed") || $0.hasPrefix("Playing") }
        #expect(finals.count == 2 && finals.contains { $0.contains("aac.mp4") } && finals.contains { $0.contains("aac.ts") }, "\(done)")
    }
}
