public import Foundation

/// DASH made at test time from the reference sample (`h264-aac.mp4`) by FFmpeg's `dash` muxer, streams
/// copied: one video and one audio representation, 2 s segments, a `SegmentTemplate` with relative URLs.
public enum DASHSample {
    /// Writes `manifest.mpd`, its init sections and segments into `directory`.
    /// - Throws: `CheckServers.ServerError` when ffmpeg fails.
    public static func make(in directory: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "ffmpeg", "-v", "error", "-i", BufprobeProcess.sample("h264-aac.mp4"), "-map", "0:v", "-map", "0:a",
            "-c", "copy", "-f", "dash", "-seg_duration", "2", "-adaptation_sets", "id=0,streams=v id=1,streams=a",
            directory.appendingPathComponent("manifest.mpd").path,
        ]
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CheckServers.ServerError("ffmpeg could not write DASH") }
    }
}
