import BufprobeCommands
import Foundation
import Testing
import TestSupport
import BufprobeOutput

@Suite("The faststart fix can be pasted")
struct FastStartFixTests {
    @Test("shell quoting leaves safe words alone and quotes the rest", arguments: [
        ("samples/a.mp4", "samples/a.mp4"), ("my clip.mp4", "'my clip.mp4'"), ("it's.mp4", "'it'\\''s.mp4'"),
        ("", "''"), ("$HOME.mp4", "'$HOME.mp4'"),
    ])
    func quotes(word: String, quoted: String) {
        #expect(TextFormat.shellQuoted(word) == quoted)
    }

    @Test("probe prints the path as given, quoted; the printed command runs in a shell")
    func fixRunsAsPrinted() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bufprobe-faststart-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("it's a clip.mp4").path
        try FileManager.default.copyItem(atPath: BufprobeProcess.sample("h264-aac-moov-at-end.mp4"), toPath: input)
        let result = try BufprobeProcess.run(["probe", "--progress", "none", input])
        #expect(result.status == 0, "\(result.stderr)")
        let fix = try #require(result.stdout.split(separator: "\n").first { $0.contains("Fix: ffmpeg") })
        let command = try #require(fix.range(of: "ffmpeg -i ").map { String(fix[$0.lowerBound...]) })
        #expect(command.contains(TextFormat.shellQuoted(input)), "\(command)")
        let output = directory.appendingPathComponent("out.mp4").path
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", command.replacingOccurrences(of: "OUT.mp4", with: output) + " -loglevel error -y"]
        try shell.run()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0)
        let fixed = try BufprobeProcess.run(["probe", "--progress", "none", output])
        #expect(fixed.stdout.contains("fast start  yes") || fixed.stdout.contains("yes: the index (moov) comes before"))
    }
}
