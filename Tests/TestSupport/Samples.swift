public import Foundation

/// Locates the committed samples and runs ffprobe for reference figures (shared by the test targets).
public enum Samples {
    /// `<package>/samples`, found from this file's path so tests run from any directory.
    public static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("samples")

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

    /// Runs a tool and returns its standard output.
    public static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
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
