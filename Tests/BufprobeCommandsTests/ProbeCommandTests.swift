import BufprobeCommands
@testable import CheckEngine
import Foundation
import Testing
import TestSupport

/// The parts of `probe --json` these tests read.
private struct ProbeDocument: Decodable {
    struct Format: Decodable {
        var name: String
        var duration: Double?
        var size: Int64?
    }
    struct Stream: Decodable {
        var index: Int
        var type: String
        var codec: String
        var packets: Int
        var bytes: Int64
        var keyframes: Int
        var loadedRanges: [[Double]]
    }
    struct Gap: Decodable {
        var start: Double
        var end: Double
        var duration: Double
    }
    var schemaVersion: Int
    var source: String
    var format: Format?
    var streams: [Stream]
    var loadedRanges: [[Double]]
    var gaps: [Gap]
    var complete: Bool
    var warnings: [String]
    var error: String?
}

private func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    return try decoder.decode(type, from: Data(text.utf8))
}

private let truncatedSamples: Set<String> = ["truncated.mp4", "truncated.mkv", "truncated.ts"]

@Suite("bufprobe probe, end to end")
struct ProbeCommandTests {
    @Test("probe --json agrees with ffprobe on packet counts and format duration", arguments: Samples.media)
    func agreesWithFFprobe(path: String) throws {
        let reference = try Samples.ffprobe(path)
        let result = try BufprobeProcess.run(["probe", "--json", path])
        let truncated = truncatedSamples.contains((path as NSString).lastPathComponent)
        #expect(result.status == (truncated ? 3 : 0), "\(path): \(result.stderr)")
        let document = try decode(ProbeDocument.self, result.stdout)
        #expect(document.schemaVersion == 1)
        #expect(document.complete == !truncated)
        for stream in document.streams {
            #expect(stream.packets == reference.packets[stream.index], "stream \(stream.index) of \(path)")
        }
        #expect(document.streams.count == reference.packets.count)
        if let theirs = reference.duration {
            let ours = try #require(document.format?.duration, "\(path) has no format.duration")
            #expect(abs(ours - theirs) <= 0.001, "\(path): \(ours) vs \(theirs)")
        } else {
            #expect(document.format?.duration == nil)
        }
    }

    @Test("a complete file has one playable range and no gaps")
    func completeFileHasOneRange() throws {
        let result = try BufprobeProcess.run(["probe", "--json", BufprobeProcess.sample("h264-aac.mp4")])
        #expect(result.status == 0)
        let document = try decode(ProbeDocument.self, result.stdout)
        #expect(document.loadedRanges.count == 1)
        #expect(document.gaps.isEmpty)
        let range = try #require(document.loadedRanges.first)
        #expect(range[1] - range[0] > 9.5)
        for stream in document.streams { #expect(stream.loadedRanges.count == 1) }
    }

    @Test("a timestamp gap in the middle is reported where it is, with its length")
    func gapIsReported() throws {
        let result = try BufprobeProcess.run(["probe", "--json", BufprobeProcess.sample("gap.ts")])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try decode(ProbeDocument.self, result.stdout)
        let gap = try #require(document.gaps.first)
        #expect(document.gaps.count == 1)
        #expect(gap.duration > 2 && gap.duration < 4, "gap \(gap)")
        let first = try #require(document.loadedRanges.first)
        #expect(gap.start - first[0] > 3 && gap.start - first[0] < 5, "gap \(gap) after \(first)")
        #expect(document.warnings.contains { $0.contains("gap") })
    }

    @Test("several inputs give a JSON array and the worst exit code", arguments: [
        (["h264-aac.mp4", "cbr.wav"], Int32(0)),
        (["h264-aac.mp4", "truncated.mp4"], Int32(3)),
        (["truncated.ts", "does-not-exist.mp4", "h264-aac.mp4"], Int32(2)),
    ])
    func severalInputs(names: [String], expected: Int32) throws {
        let result = try BufprobeProcess.run(["probe", "--json"] + names.map(BufprobeProcess.sample))
        #expect(result.status == expected, "\(result.stderr)")
        let documents = try decode([ProbeDocument].self, result.stdout)
        #expect(documents.map { ($0.source as NSString).lastPathComponent } == names)
    }

    @Test("probe --json is byte-identical across runs apart from read_time")
    func jsonIsStable() throws {
        func run() throws -> String {
            let result = try BufprobeProcess.run(["probe", "--json", BufprobeProcess.sample("h264-aac.mp4")])
            return result.stdout.split(separator: "\n").filter { !$0.contains("\"read_time\"") }.joined(separator: "\n")
        }
        let first = try run()
        #expect(first.contains("\"schema_version\""))
        #expect(try run() == first)
        #expect(try run() == first)
    }

    @Test("text output names the container, every stream and the loaded ranges")
    func textOutput() throws {
        let result = try BufprobeProcess.run(["probe", BufprobeProcess.sample("h264-aac.mp4")])
        #expect(result.status == 0)
        for word in ["container", "stream 0", "stream 1", "h264", "aac", "loaded", "packets", "keyframes"] {
            #expect(result.stdout.contains(word), "missing \(word) in:\n\(result.stdout)")
        }
        #expect(!result.stdout.contains("\u{1B}"), "no escape codes on a pipe")
    }
}

/// One bad input: how to make it, and what bufprobe must say.
struct BadInput: Sendable, CustomStringConvertible {
    var name: String
    var make: @Sendable (URL) throws -> String
    var status: Int32
    var prefix: String
    var mentions: String
    var description: String { name }
}

@Suite("bufprobe probe on bad input")
struct ProbeBadInputTests {
    static let cases: [BadInput] = [
        BadInput(name: "nonexistent path", make: { $0.appendingPathComponent("missing.mp4").path }, status: 2,
                 prefix: "error:", mentions: "no such file"),
        BadInput(name: "a directory", make: { $0.path }, status: 2, prefix: "error:", mentions: "directory"),
        BadInput(name: "an empty file", make: { dir in
            let path = dir.appendingPathComponent("empty.mp4")
            try Data().write(to: path)
            return path.path
        }, status: 2, prefix: "error:", mentions: "empty"),
        BadInput(name: "a text file", make: { dir in
            let path = dir.appendingPathComponent("notes.txt")
            try Data(String(repeating: "hello, this is text and not media\n", count: 100).utf8).write(to: path)
            return path.path
        }, status: 2, prefix: "error:", mentions: "not a media file"),
        BadInput(name: "a binary file that is not media", make: { dir in
            let path = dir.appendingPathComponent("noise.bin")
            try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }).write(to: path)
            return path.path
        }, status: 2, prefix: "error:", mentions: "not a media file"),
        BadInput(name: "a URL nothing listens on (127.0.0.1 port 1)", make: { _ in "http://127.0.0.1:1/x.mp4" },
                 status: 2, prefix: "error:", mentions: "refused"),
        BadInput(name: "an unknown URL scheme", make: { _ in "nosuchscheme://host/x.mp4" }, status: 2,
                 prefix: "error:", mentions: "URL scheme"),
        BadInput(name: "a truncated MP4", make: { _ in BufprobeProcess.sample("truncated.mp4") }, status: 3,
                 prefix: "warning:", mentions: "truncated.mp4"),
        BadInput(name: "a truncated Matroska", make: { _ in BufprobeProcess.sample("truncated.mkv") }, status: 3,
                 prefix: "warning:", mentions: "truncated.mkv"),
        BadInput(name: "a truncated MPEG-TS", make: { _ in BufprobeProcess.sample("truncated.ts") }, status: 3,
                 prefix: "warning:", mentions: "truncated.ts"),
    ]

    @Test("a URL answered 404 is one sentence: it names the URL and the status, without FFmpeg's own words")
    func notFound() throws {
        let nginx = try NginxServer()
        let url = nginx.url("missing.mp4")
        let run = try BufprobeProcess.run(["probe", "--progress", "none", url])
        #expect(run.status == 2)
        #expect(run.stderr == "error: \(url) could not be opened: the server answered HTTP 404 Not Found.\n", "\(run.stderr)")
    }

    @Test("bad input: exit code and one clear sentence on stderr naming the input", arguments: cases)
    func badInput(_ bad: BadInput) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bufprobe-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try bad.make(directory)
        for arguments in [["probe", path], ["probe", "--json", path]] {
            let result = try BufprobeProcess.run(arguments)
            #expect(result.status == bad.status, "\(bad.name): \(result.stderr)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(bad.name): exactly one line on stderr, got:\n\(result.stderr)")
            let first = String(lines.first ?? "")
            #expect(first.hasPrefix(bad.prefix), "\(bad.name): \(first)")
            #expect(first.contains(bad.mentions), "\(bad.name): \(first)")
            #expect(first.contains((path as NSString).lastPathComponent), "\(bad.name) must name the input: \(first)")
            #expect(!result.stderr.contains("@ 0x"), "no FFmpeg log dump: \(result.stderr)")
        }
    }

    @Test("--json on an unreadable input still prints a document with the error")
    func jsonErrorDocument() throws {
        let result = try BufprobeProcess.run(["probe", "--json", "/nonexistent/x.mp4"])
        #expect(result.status == 2)
        let document = try decode(ProbeDocument.self, result.stdout)
        #expect(document.error?.contains("no such file") == true)
        #expect(document.complete == false)
    }

    @Test("a usage error exits 64")
    func usageError() throws {
        let result = try BufprobeProcess.run(["probe"])
        #expect(result.status == 64)
        let bad = try BufprobeProcess.run(["probe", "--option", "novalue", BufprobeProcess.sample("cbr.wav")])
        #expect(bad.status == 64)
    }
}
