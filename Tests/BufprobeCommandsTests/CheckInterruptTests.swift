import Foundation
import Testing
import TestSupport

/// An interrupted `check` reports what it measured: the real binary in a real terminal (tmux), a check of
/// about 20 s (the sample served by nginx at half its bit rate) stopped 5 s in. The report so far is
/// printed (text, or JSON with `--json`) marked interrupted, the exit status stays 128 + the signal, and
/// the terminal is left clean (the Interrupted frame, a visible cursor, the report on lines of its own).
@Suite("An interrupted check reports what it measured", .serialized)
struct CheckInterruptTests {
    static let file = "h264-aac.mp4"
    let binary = BufprobeProcess.executable.path

    /// nginx serving the sample at half its average bit rate (about 20 s to receive it), and its URL.
    static func slowStream() throws -> (NginxServer, String) {
        let prediction = try CheckPrediction(path: BufprobeProcess.sample(file))
        let rate = Int((Double(prediction.size) / prediction.duration * 0.5).rounded())
        let server = try NginxServer(rates: [rate])
        return (server, server.url(file, bytesPerSecond: rate))
    }

    @Test("Ctrl-C 5 s into a 20 s check prints the partial report marked interrupted, exit 130, cursor visible, line finished")
    func controlC() throws {
        let (server, url) = try Self.slowStream()
        defer { withExtendedLifetime(server) {} }
        let tmux = Tmux()
        defer { tmux.stop() }
        let began = Date()
        try tmux.start("'\(binary)' check '\(url)'; echo EXIT=$?; sleep 60", width: 160)
        _ = try tmux.waitFor("Playing", timeout: 10)
        let wait = 5 - Date().timeIntervalSince(began)
        if wait > 0 { usleep(useconds_t(wait * 1_000_000)) }
        try tmux.run(["send-keys", "-t", "t", "C-c"])
        let lines = try tmux.waitFor("EXIT=", timeout: 10)
        let stoppedAfter = Date().timeIntervalSince(began)
        #expect(lines.contains("EXIT=130"), "\(lines)")
        #expect(stoppedAfter < 12, "it stopped at Ctrl-C, not at the end of the 20 s stream (\(stoppedAfter) s)")
        #expect(lines.contains { $0.hasPrefix("Interrupted") }, "the live line's final frame says so: \(lines)")
        #expect(lines.contains { $0.hasPrefix("warning: ") && $0.contains("interrupted; the report covers what was measured") }, "\(lines)")
        #expect(lines.contains(url), "the report's first line, on a line of its own: \(lines)")
        #expect(lines.contains { $0.hasPrefix("  verdict:     FAIL: ") && $0.contains("interrupted after") }, "\(lines)")
        let marked = try #require(lines.first { $0.hasPrefix("  interrupted: stopped after ") }, "\(lines)")
        #expect(marked.contains("the figures below cover what was measured until then"))
        #expect(lines.contains { $0.hasPrefix("  timing:      ") && $0.contains("startup") }, "what it measured: \(lines)")
        #expect(lines.contains { $0.hasPrefix("  stalls:      ") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("  played:      ") }, "\(lines)")
        #expect(try tmux.cursorVisible(), "the cursor is visible again")
    }

    @Test("SIGTERM during check --json writes one valid document with interrupted true and what was measured, exit 143")
    func terminatedJSON() throws {
        let (server, url) = try Self.slowStream()
        defer { withExtendedLifetime(server) {} }
        let directory = try CheckServers.temporaryDirectory("bufprobe-interrupt")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("report.json")
        let pidFile = directory.appendingPathComponent("pid")
        let tmux = Tmux()
        defer { tmux.stop() }
        // `exec` keeps the shell's pid for bufprobe: the pid file names the process to signal.
        try tmux.start(
            "sh -c 'echo $$ > \(pidFile.path); exec \(binary) check --json \(url) > \(output.path)'; echo EXIT=$?; sleep 60",
            width: 160)
        _ = try tmux.waitFor("Playing", timeout: 10)
        usleep(3_000_000)
        let text = try String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let pid = try #require(pid_t(text))
        kill(pid, SIGTERM)
        let lines = try tmux.waitFor("EXIT=", timeout: 10)
        #expect(lines.contains("EXIT=143"), "\(lines)")
        #expect(try tmux.cursorVisible())
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any], "one JSON document")
        #expect(document["interrupted"] as? Bool == true)
        #expect(document["verdict"] as? String == "fail")
        #expect(document["complete"] as? Bool == false)
        #expect(document["startup_delay"] is Double, "it had started: \(document["reason"] ?? "")")
        #expect((document["played"] as? Double ?? 0) > 0)
        #expect((document["sampled_duration"] as? Double ?? 0) > 3)
    }

    @Test("a check that is not interrupted says interrupted false in JSON")
    func notInterrupted() throws {
        let result = try BufprobeProcess.run(["check", "--json", BufprobeProcess.sample(Self.file)])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(document["interrupted"] as? Bool == false)
    }
}
