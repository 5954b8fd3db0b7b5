@testable import BufprobeCommands
import Foundation
import MediaIO
import PlaybackModel
import Testing
import TestSupport
import BufprobeOutput
@testable import SimulateEngine

/// A moov-at-end MP4 played for real: `bufprobe check` reads it from nginx with `limit_rate` (libavformat
/// fetches it by range requests: the head, the index at the tail, the media), and `bufprobe simulate`
/// models the same file at the same rate with its default `--download ranges`.
@Suite("A moov-at-end MP4: simulate agrees with check over nginx")
struct MoovAtEndNginxTests {
    /// 20 s of 320x180 H.264 (2 s GOP) + AAC, about 300 kbit/s, written without +faststart, so ffmpeg's
    /// mp4 muxer puts `moov` after `mdat`: long enough to stall below its bit rate (20 s: the comparison is
    /// real time, so the clip is as short as still makes both stall).
    static func makeFile() throws -> (directory: URL, name: String) {
        let directory = try CheckServers.temporaryDirectory("bufprobe-moov")
        let name = "moov-at-end.mp4"
        _ = try Samples.run("ffmpeg", [
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=20",
            "-f", "lavfi", "-i", "sine=frequency=440:beep_factor=4:sample_rate=48000:duration=20",
            "-c:v", "libx264", "-preset", "ultrafast", "-threads", "1", "-pix_fmt", "yuv420p", "-g", "50",
            "-keyint_min", "50", "-sc_threshold", "0", "-b:v", "240k", "-maxrate", "300k", "-bufsize", "600k",
            "-c:a", "aac", "-ac", "2", "-b:a", "48k", directory.appendingPathComponent(name).path,
        ])
        return (directory, name)
    }

    @Test("at 0.89x the file's bit rate, check and simulate stall as often, and start within 1.5 s of each other")
    func stallingRateAgrees() throws {
        let (directory, name) = try Self.makeFile()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(name).path
        let boxes = try #require(try? MP4BoxLayout.scan(path: path))
        #expect(boxes.isFastStart == false, "the test file must have its index at the end")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let rate = Int((Double(size) / 20 * 0.89).rounded())
        let server = try NginxServer(rates: [rate], ratedRoot: directory)

        let checked = try BufprobeProcess.run(["check", "--json", server.url(name, bytesPerSecond: rate)])
        let check = try CheckDocument.decode(checked.stdout)
        // libavformat really fetched it by three range requests (the head, the index, the media).
        #expect(server.requestedPaths().count == 3, "\(server.requestedPaths())")
        let simulated = try BufprobeProcess.run(["simulate", path, "--bandwidth", "\(rate * 8)", "--json"])
        let simulate = try JSONOutput.decoder().decode(SimulateReport.self, from: Data(simulated.stdout.utf8))
        #expect(simulate.source.download == "ranges")
        #expect(simulate.requests == 3)

        #expect(check.stallCount > 0, "the rate must make check stall for the comparison to mean anything")
        #expect(simulate.stallCount == check.stallCount, "simulate \(simulate.stalls), check \(check.stalls)")
        // nginx sends a second's worth of bytes at once at each request's start, so check is a little
        // ahead of a constant rate; both are far from the sequential model's whole file first.
        let startup = try #require(check.startupDelay)
        #expect(abs(simulate.startupDelay - startup) <= 1.5, "simulate \(simulate.startupDelay) s, check \(startup) s")
        let sequential = try BufprobeProcess.run([
            "simulate", path, "--bandwidth", "\(rate * 8)", "--download", "sequential", "--json",
        ])
        let whole = try JSONOutput.decoder().decode(SimulateReport.self, from: Data(sequential.stdout.utf8))
        #expect(whole.startupDelay > Double(size) / Double(rate) - 1)
    }
}
