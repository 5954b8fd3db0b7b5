import Foundation
import Testing
import TestSupport

/// Media that stops short of what it declares, through the real binary: `probe`, `check` and `simulate`
/// say so in one sentence (`TruncationRule.sentence`), exit with their documented codes (probe 3, check 2,
/// simulate 3), and print none of FFmpeg's own log lines unless asked (`-v`).
@Suite("truncated input: one sentence, documented exit codes, no FFmpeg log line")
struct TruncatedInputTests {
    /// The samples: an MP4 whose mdat is cut (FFmpeg logs `Packet corrupt`, `Invalid NAL unit size`) and a
    /// Matroska file cut short (FFmpeg logs `File ended prematurely`); both declare about 10 s.
    static let samples = [("truncated.mp4", "10.000"), ("truncated.mkv", "10.008")]

    /// The lines of `stderr` that are FFmpeg's log: `[mov,mp4,...]`, `[NULL @ ...]`, `[matroska,webm @ ...]`.
    static func ffmpegLines(_ stderr: String) -> [Substring] {
        stderr.split(separator: "\n").filter { $0.hasPrefix("[") }
    }

    /// The one `warning:`/`error:` line of `stderr` holding the shortfall sentence, without its prefix.
    static func sentence(_ stderr: String) throws -> String {
        let line = try #require(stderr.split(separator: "\n").first { $0.contains("stops short of what it declares") }, "\(stderr)")
        return String(line.drop { $0 != " " }.dropFirst())
    }

    @Test("probe, check and simulate give the same sentence, exit 3, 2 and 3, and no FFmpeg log line", arguments: samples)
    func sameSentence(_ sample: (name: String, declared: String)) throws {
        let path = BufprobeProcess.sample(sample.name)
        let probe = try BufprobeProcess.run(["probe", path, "--progress", "none"])
        let check = try BufprobeProcess.run(["check", path, "--progress", "none"])
        let simulate = try BufprobeProcess.run(["simulate", path, "--bandwidth", "150k", "--progress", "none"])
        #expect(probe.status == 3, "\(probe.stderr)")
        #expect(check.status == 2, "\(check.stderr)")
        #expect(simulate.status == 3, "\(simulate.stderr)")
        for run in [probe, check, simulate] {
            #expect(Self.ffmpegLines(run.stderr).isEmpty, "\(run.stderr)")
        }
        #expect(probe.stderr.hasPrefix("warning: "))
        #expect(simulate.stderr.hasPrefix("warning: "))
        // check's is its fail verdict's reason: an error.
        #expect(check.stderr.hasPrefix("error: "))
        let words = "\(path) stops short of what it declares: \(sample.declared) s declared, "
        let sentences = try [probe, check, simulate].map { try Self.sentence($0.stderr) }
        for sentence in sentences { #expect(sentence.hasPrefix(words), "\(sentence)") }
        // check and simulate both count the playable media read: the same figures.
        #expect(sentences[1] == sentences[2])
        // Each report shows it too.
        #expect(probe.stdout.contains("warning     \(sentences[0])"))
        #expect(check.stdout.contains("verdict:     FAIL: \(sentences[1])"))
        #expect(simulate.stdout.contains("warning  \(sentences[2])"))
    }

    @Test("an MPEG-TS file cut inside a transport packet (no declared duration): the same tail sentence from probe, check and simulate, exit 3, 2 and 3")
    func cutTransportStream() throws {
        let path = BufprobeProcess.sample("truncated.ts")
        let runs = try [
            BufprobeProcess.run(["probe", path, "--progress", "none"]),
            BufprobeProcess.run(["check", path, "--progress", "none"]),
            BufprobeProcess.run(["simulate", path, "--bandwidth", "1M", "--progress", "none"]),
        ]
        #expect(runs.map(\.status) == [3, 2, 3], "\(runs.map(\.stderr))")
        let sentence = "\(path) looks truncated: its size (202250 bytes) is not a whole number of 188-byte transport packets."
        for (run, prefix) in zip(runs, ["warning: ", "error: ", "warning: "]) {
            #expect(run.stderr.contains(prefix + sentence), "\(run.stderr)")
            #expect(Self.ffmpegLines(run.stderr).isEmpty, "\(run.stderr)")
        }
        // The whole file it was cut from: all three exit 0.
        let whole = BufprobeProcess.sample("h264-aac.ts")
        #expect(try BufprobeProcess.run(["check", whole, "--progress", "none"]).status == 0)
        #expect(try BufprobeProcess.run(["simulate", whole, "--bandwidth", "1M", "--progress", "none"]).status == 0)
    }

    @Test("simulate's report says how much was read of what is declared, in text and JSON")
    func simulateReport() throws {
        let path = BufprobeProcess.sample("truncated.mp4")
        let text = try BufprobeProcess.run(["simulate", path, "--bandwidth", "150k", "--progress", "none"])
        #expect(text.stdout.contains("played         5.931 s of 5.931 s read (10.000 s declared), ended"), "\(text.stdout)")
        let json = try BufprobeProcess.run(["simulate", path, "--bandwidth", "150k", "--json"])
        #expect(json.status == 3)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let source = try #require(document["source"] as? [String: Any])
        #expect(document["complete"] as? Bool == false)
        #expect(source["declared_duration"] as? Double == 10)
        #expect(abs((source["duration"] as? Double ?? 0) - 5.931) < 0.0005)
        #expect(document["warnings"] as? [String] == [try Self.sentence(json.stderr)])
    }

    @Test("whole media: simulate exits 0, complete, no warning")
    func wholeMedia() throws {
        let json = try BufprobeProcess.run(["simulate", BufprobeProcess.sample("h264-aac.mp4"), "--bandwidth", "1Mbit", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stderr.isEmpty, "\(json.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(document["complete"] as? Bool == true)
        #expect(document["warnings"] as? [String] == [])
        #expect((document["source"] as? [String: Any])?["declared_duration"] as? Double == 10)
    }

    @Test("simulate -v shows FFmpeg's own log when asked")
    func verboseShowsFFmpegLog() throws {
        let run = try BufprobeProcess.run(
            ["simulate", BufprobeProcess.sample("truncated.mp4"), "--bandwidth", "150k", "--progress", "none", "-v"])
        #expect(run.status == 3)
        #expect(run.stderr.contains("Packet corrupt"), "\(run.stderr)")
    }

    @Test(
        "on one terminal (stdout and stderr the same tty) each command shows the sentence once, in its report",
        arguments: [["probe"], ["check"], ["simulate", "--bandwidth", "150k"]])
    func onceOnATerminal(_ command: [String]) throws {
        let script = URL(fileURLWithPath: "/usr/bin/script")
        try #require(FileManager.default.isExecutableFile(atPath: script.path), "util-linux's script gives the command a terminal")
        let line = ([BufprobeProcess.executable.path, command[0], BufprobeProcess.sample("truncated.mp4")] + command.dropFirst()
            + ["--progress", "none"]).map { "'\($0)'" }.joined(separator: " ")
        let run = try BufprobeProcess.run(script, ["-qec", line, "/dev/null"])
        #expect(run.stdout.components(separatedBy: "stops short of what it declares").count == 2, "\(run.stdout)")
        // No stderr sentence beside the report's (the report's own lines are indented).
        let lines = run.stdout.split(whereSeparator: \.isNewline)
        #expect(!lines.contains { $0.hasPrefix("error: ") || $0.hasPrefix("warning: ") }, "\(run.stdout)")
    }

    @Test("on one terminal an unreadable input's error shows once, in the report (probe and check)")
    func errorOnceOnATerminal() throws {
        let script = URL(fileURLWithPath: "/usr/bin/script")
        try #require(FileManager.default.isExecutableFile(atPath: script.path), "util-linux's script gives the command a terminal")
        let notMedia = BufprobeProcess.packageRoot.appendingPathComponent("README.md").path
        for command in ["probe", "check"] {
            let line = "'\(BufprobeProcess.executable.path)' \(command) '\(notMedia)' --progress none"
            let run = try BufprobeProcess.run(script, ["-qec", line, "/dev/null"])
            #expect(run.stdout.components(separatedBy: "is not a media file").count == 2, "\(run.stdout)")
            #expect(!run.stdout.split(whereSeparator: \.isNewline).contains { $0.hasPrefix("error: ") }, "\(run.stdout)")
            // Redirected, the sentence is on stderr as well.
            let redirected = try BufprobeProcess.run([command, notMedia, "--progress", "none"])
            #expect(redirected.stderr.hasPrefix("error: \(notMedia) is not a media file"), "\(redirected.stderr)")
        }
    }
}
