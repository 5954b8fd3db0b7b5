public import Foundation

/// Locates the committed samples and runs ffprobe for reference figures (shared by the test targets).
public enum Samples {
    /// `<package>/samples`, found from this file's path so tests run from any directory.
    public static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("samples")

    /// A copy of `h264-aac.mp4` in a temporary file with 64 bytes of 0xFF every 20,000 bytes past its
    /// header: damaged H.264 NAL units, which FFmpeg's parser logs about ("Invalid NAL unit size") as they
    /// are read. The caller removes it.
    public static func damagedH264Copy() throws -> URL {
        var data = try Data(contentsOf: directory.appendingPathComponent("h264-aac.mp4"))
        for offset in stride(from: 60_000, to: data.count - 1_000, by: 20_000) {
            data.replaceSubrange(offset..<(offset + 64), with: Data(repeating: 0xFF, count: 64))
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bufprobe-damaged-\(UUID().uuidString).mp4")
        try data.write(to: url)
        return url
    }

    /// Every committed media sample (the HLS master playlist included), sorted by name.
    public static var media: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let mediaExtensions: Set<String> = ["mp4", "mkv", "ts", "flv", "mp3", "opus", "wav", "webm", "mov", "m4a"]
        var files = names.filter { mediaExtensions.contains(($0 as NSString).pathExtension) }.sorted()
        if FileManager.default.fileExists(atPath: directory.appendingPathComponent("hls/master.m3u8").path) {
            files.append("hls/master.m3u8")
        }
        return files.map { directory.appendingPathComponent($0).path }
    }

    /// A tool that exited with a non-zero status.
    public struct ToolFailure: Error, CustomStringConvertible {
        /// The command line.
        public var command: [String]
        /// Exit status.
        public var status: Int32
        /// What it printed on stderr.
        public var stderr: String
        public var description: String { "\(command.joined(separator: " ")) exited \(status): \(stderr)" }
    }

    /// Runs a tool and returns its standard output; throws `ToolFailure` on a non-zero exit.
    ///
    /// A tool that leaves a daemon behind (`tmux new-session -d`) must be run with `capture: false`:
    /// it then starts through Python's `subprocess`, which closes inherited descriptors, because
    /// Foundation's `Process` on Linux waits until every holder of its internal pipe is gone, and the
    /// daemon would hold it until it exits.
    public static func run(_ tool: String, _ arguments: [String], capture: Bool = true) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = capture
            ? [tool] + arguments
            : ["python3", "-c", "import subprocess, sys; sys.exit(subprocess.run(sys.argv[1:]).returncode)", tool]
                + arguments
        process.standardInput = FileHandle.nullDevice
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("bufprobe-tool-\(UUID().uuidString).err")
        try Data().write(to: errors)
        defer { try? FileManager.default.removeItem(at: errors) }
        process.standardError = try FileHandle(forWritingTo: errors)
        var data = Data()
        if capture {
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            data = output.fileHandleForReading.readDataToEndOfFile()
        } else {
            process.standardOutput = FileHandle.nullDevice
            try process.run()
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw ToolFailure(command: [tool] + arguments, status: process.terminationStatus, stderr: text)
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// ffprobe's per-stream packet counts and format duration for `path`.
    public static func ffprobe(_ path: String) throws -> (packets: [Int: Int], duration: Double?) {
        let text = try run("ffprobe", [
            "-v", "error", "-count_packets", "-show_entries", "stream=index,nb_read_packets:format=duration",
            "-of", "json", path,
        ])
        struct Document: Decodable {
            struct Stream: Decodable {
                var index: Int
                var nb_read_packets: String?
            }
            struct Format: Decodable { var duration: String? }
            var streams: [Stream]?
            var format: Format?
        }
        let document = try JSONDecoder().decode(Document.self, from: Data(text.utf8))
        var packets: [Int: Int] = [:]
        for stream in document.streams ?? [] { packets[stream.index] = Int(stream.nb_read_packets ?? "0") ?? 0 }
        return (packets, document.format?.duration.flatMap(Double.init))
    }
}
