import BufprobeCommands
import Foundation
import Testing
import TestSupport
import BufprobeOutput

/// One committed `probe` result: the arguments before the sample, the sample, and the golden file's name.
struct ProbeGoldenCase: CustomTestStringConvertible, Sendable {
    /// Options given before the input.
    var options: [String]
    /// Path under `samples/`.
    var sample: String

    /// `h264-aac.mp4.json`, `hls-master.m3u8.json`, `h264-aac-moov-at-end.mp4.latency-0.25.json`.
    var goldenName: String {
        let flat = sample.replacingOccurrences(of: "/", with: "-")
        let extra = options.filter { $0 != "--json" }.map { $0.replacingOccurrences(of: "--", with: "") }
        return ([flat] + (extra.isEmpty ? [] : [extra.joined(separator: "-")])).joined(separator: ".") + ".json"
    }

    var testDescription: String { (options + [sample]).joined(separator: " ") }

    /// Every committed media sample with the defaults, plus a request latency where it changes the needs
    /// arithmetic (the range-request layout of a moov-at-end MP4, and a playlist).
    static let all: [ProbeGoldenCase] = {
        let root = Samples.directory.path + "/"
        let samples = Samples.media.map { $0.hasPrefix(root) ? String($0.dropFirst(root.count)) : $0 }
        return samples.map { ProbeGoldenCase(options: ["--json"], sample: $0) } + [
            ProbeGoldenCase(options: ["--json", "--latency", "0.25"], sample: "h264-aac-moov-at-end.mp4"),
            ProbeGoldenCase(options: ["--json", "--latency", "0.25"], sample: "h264-aac.ts"),
        ]
    }()
}

/// `probe --json` on every sample, byte for byte against the committed output: the guard for changes to
/// the packet loop and its analysis (issue 15) that must not change a single figure.
@Suite("bufprobe probe, golden output")
struct ProbeGoldenTests {
    /// Outside every target's folder, so SwiftPM does not ask for them to be declared as resources.
    /// Regenerate with `BUFPROBE_UPDATE_GOLDEN=1 swift test --filter ProbeGoldenTests` and review the diff.
    static let goldenDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Golden/probe")

    /// The output with what differs between runs, checkouts and machines taken out: the checkout's path,
    /// `read_time` (wall time, becomes `0`), and the bufprobe and FFmpeg versions (as the simulate goldens).
    static func normalised(_ output: String) -> String {
        let root = BufprobeProcess.packageRoot.path + "/"
        let text = output.replacingOccurrences(of: root, with: "")
            .replacingOccurrences(
                of: "\"bufprobe_version\" : \"\(BufprobeVersion.string)\"", with: "\"bufprobe_version\" : \"VERSION\"")
            .replacingOccurrences(
                of: #""ffmpeg_versions" : \{[^}]*\}"#, with: "\"ffmpeg_versions\" : \"VERSIONS\"", options: .regularExpression)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.map { line -> String in
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("\"read_time\" : ") else { return String(line) }
            let indent = line.prefix { $0 == " " }
            return indent + "\"read_time\" : 0" + (line.hasSuffix(",") ? "," : "")
        }.joined(separator: "\n")
    }

    @Test("probe --json gives the committed output on every sample", arguments: ProbeGoldenCase.all)
    func golden(_ golden: ProbeGoldenCase) throws {
        let arguments = ["probe"] + golden.options + [BufprobeProcess.sample(golden.sample)]
        let result = try BufprobeProcess.run(arguments, timeout: 300)
        #expect(result.status == 0 || result.status == 3, "\(result.stderr)")
        let output = Self.normalised(result.stdout)
        let file = Self.goldenDirectory.appendingPathComponent(golden.goldenName)
        if ProcessInfo.processInfo.environment["BUFPROBE_UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: Self.goldenDirectory, withIntermediateDirectories: true)
            try output.write(to: file, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(output == expected, "\(golden.goldenName) differs: regenerate only if the change is intended")
    }

    @Test("probe --plot draws the committed SVG (the per-second bytes and keyframes)", arguments: ["h264-aac.mp4", "gap.ts"])
    func plot(sample: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bufprobe-golden-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let svg = directory.appendingPathComponent("plot.svg")
        let result = try BufprobeProcess.run(["probe", "--plot", svg.path, BufprobeProcess.sample(sample)])
        #expect(result.status == 0, "\(result.stderr)")
        let output = Self.normalised(try String(contentsOf: svg, encoding: .utf8))
        let file = Self.goldenDirectory.appendingPathComponent("\(sample).plot.svg")
        if ProcessInfo.processInfo.environment["BUFPROBE_UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: Self.goldenDirectory, withIntermediateDirectories: true)
            try output.write(to: file, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(output == expected, "\(file.lastPathComponent) differs: regenerate only if the change is intended")
    }

    @Test("normalising replaces read_time and the checkout path, and nothing else")
    func normalising() {
        let root = BufprobeProcess.packageRoot.path
        let text = "{\n  \"read_time\" : 0.01026,\n  \"source\" : \"\(root)/samples/x.mp4\",\n  \"x\" : 0.01026\n}"
        #expect(Self.normalised(text) == "{\n  \"read_time\" : 0,\n  \"source\" : \"samples/x.mp4\",\n  \"x\" : 0.01026\n}")
    }
}
