import Foundation
import TestSupport

/// Hostile inputs built at test time with ffmpeg (nothing committed): each lives in a fresh temporary
/// directory that `remove()` deletes.
struct HostileMedia {
    let directory: URL

    init() throws {
        directory = try CheckServers.temporaryDirectory("bufprobe-hostile")
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Runs ffmpeg quietly with `arguments`, writing into this directory.
    func ffmpeg(_ arguments: [String]) throws {
        _ = try Samples.run("ffmpeg", ["-v", "error", "-nostdin", "-y"] + arguments)
    }

    /// `cat audio-only.ts video+audio.ts`: an MPEG-TS whose second half brings a new PMT and PIDs, so the
    /// demuxer adds two streams after opening.
    func newPIDs() throws -> String {
        try ffmpeg([
            "-f", "lavfi", "-i", "sine=d=2", "-c:a", "aac", "-f", "mpegts", "-mpegts_start_pid", "0x100",
            path("a.ts"),
        ])
        try ffmpeg([
            "-f", "lavfi", "-i", "testsrc=d=2:s=160x120:r=25", "-f", "lavfi", "-i", "sine=d=2:f=880",
            "-c:v", "libx264", "-c:a", "aac", "-f", "mpegts", "-mpegts_start_pid", "0x200",
            "-mpegts_pmt_start_pid", "0x1100", "-mpegts_service_id", "2", path("va.ts"),
        ])
        var data = try Data(contentsOf: URL(fileURLWithPath: path("a.ts")))
        data.append(try Data(contentsOf: URL(fileURLWithPath: path("va.ts"))))
        let joined = path("newpid.ts")
        try data.write(to: URL(fileURLWithPath: joined))
        return joined
    }

    /// An HLS VOD of two 6 s encodes, the second after `#EXT-X-DISCONTINUITY`: its timestamps restart.
    func discontinuityPlaylist() throws -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:2", "#EXT-X-PLAYLIST-TYPE:VOD"]
        for (part, tone) in [("a", 440), ("b", 880)] {
            try ffmpeg([
                "-f", "lavfi", "-i", "testsrc=d=6:s=160x120:r=25", "-f", "lavfi", "-i", "sine=d=6:f=\(tone)",
                "-c:v", "libx264", "-g", "50", "-c:a", "aac", "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod",
                "-hls_segment_filename", path("\(part)%d.ts"), path("\(part).m3u8"),
            ])
            if part == "b" { lines.append("#EXT-X-DISCONTINUITY") }
            for segment in 0..<3 { lines += ["#EXTINF:2.000000,", "\(part)\(segment).ts"] }
        }
        lines.append("#EXT-X-ENDLIST")
        let playlist = path("discontinuity.m3u8")
        try (lines.joined(separator: "\n") + "\n").write(toFile: playlist, atomically: true, encoding: .utf8)
        return playlist
    }
}
