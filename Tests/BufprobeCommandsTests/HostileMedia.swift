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
}
