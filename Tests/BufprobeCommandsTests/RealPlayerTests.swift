import Foundation
import Testing
import TestSupport

/// mpv, a real player, and `check --player mpv` on the same throttled URL, and `check --record-trace`
/// replayed by `simulate --trace`; the media is made at test time by ffmpeg and served by nginx
/// (`limit_rate`).
@Suite("A real player and recorded traces", .serialized)
struct RealPlayerTests {
    /// mpv's path, or `nil` when it is not installed (the mpv test is then skipped, saying so).
    static let mpv: String? = ["/usr/bin/mpv", "/usr/local/bin/mpv"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The clip's duration, seconds: short enough for a quick test, long enough for several stalls.
    static let clipSeconds = 8.0

    /// An 8 s faststart MP4 (320x180 H.264 at 400 kbit/s, 1 s GOP, AAC 64 kbit/s) in `directory`; its size.
    static func makeClip(in directory: URL) throws -> Int {
        let path = directory.appendingPathComponent("clip.mp4").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100", "-t", String(clipSeconds),
            "-c:v", "libx264", "-threads", "1", "-preset", "veryfast", "-b:v", "400k", "-g", "25",
            "-c:a", "aac", "-b:a", "64k", "-movflags", "+faststart", path,
        ]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CheckServers.ServerError("ffmpeg could not make the clip") }
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        return try #require(size)
    }

    /// Bytes per second that deliver a clip of `size` bytes at `multiple` x its average bit rate.
    static func rate(_ multiple: Double, size: Int) -> Int {
        Int((Double(size) / clipSeconds * multiple).rounded())
    }

    /// What mpv's own verbose log says it lived through.
    struct MpvPlay {
        /// "Enter buffering" lines: mpv pausing because its cache ran dry (`--cache-pause`), its stalls.
        var stalls: Int
        /// Whether it played to the end of the file.
        var reachedEnd: Bool
        /// The log, for failure messages.
        var log: String
    }

    /// Starts mpv headless on `url`, logging at verbose level to `log`.
    static func startMpv(_ mpv: String, url: String, log: URL) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: mpv)
        process.arguments = [
            "--no-config", "--no-terminal", "--vo=null", "--ao=null", "--ytdl=no", "--msg-level=all=v",
            "--log-file=\(log.path)", url,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits for mpv (at most `timeout` seconds, then kills it) and reads its log.
    static func finish(_ process: Process, log: URL, timeout: Double = 60) -> MpvPlay {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning {
            process.terminate()
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        let lines = text.split(separator: "\n")
        return MpvPlay(
            stalls: lines.filter { $0.contains("[cplayer] Enter buffering") }.count,
            reachedEnd: text.contains("(End of file)"), log: text)
    }

    @Test(
        "mpv (headless, its stalls read from its log) and check --player mpv on the same throttled URL stall the same number of times",
        .enabled(if: mpv != nil, "mpv is not installed: the real-player comparison needs it (apt-get install mpv)"),
        arguments: [(0.6, true), (3.0, false)])
    func mpvAgrees(multiple: Double, stalls: Bool) throws {
        let mpv = try #require(Self.mpv)
        let directory = try CheckServers.temporaryDirectory("bufprobe-mpv")
        defer { try? FileManager.default.removeItem(at: directory) }
        let rate = Self.rate(multiple, size: try Self.makeClip(in: directory))
        let server = try NginxServer(rates: [rate], extraRoots: ["clip": directory])
        let url = server.url("clip/clip.mp4", bytesPerSecond: rate)
        // mpv is a real player on a shared machine: a busy core can cost it (or check) an extra blip of a
        // stall right after the start, and mpv 0.35 starved of CPU near the end has been seen to stop short
        // of its video's end and never exit (its log's last lines: audio EOF, then nothing for the video).
        // So the pair is played up to three times and the rule holds when a run is whole (mpv played to the
        // end, check completed) and agrees; every run's counts, and a stuck mpv's last log lines, are in the
        // failure message.
        var runs: [String] = []
        for attempt in 1...3 {
            let log = directory.appendingPathComponent("mpv-\(attempt).log")
            // Side by side: each has its own connection, paced by nginx at the same rate.
            let player = try Self.startMpv(mpv, url: url, log: log)
            let result = try BufprobeProcess.run(["check", "--json", "--player", "mpv", url])
            // The clip at 0.6x its rate arrives in about 14 s; mpv ends within 30 s or is stuck.
            let played = Self.finish(player, log: log, timeout: 30)
            let document = try CheckDocument.decode(result.stdout)
            guard played.reachedEnd, document.complete else {
                runs.append("run \(attempt) was not whole (check complete: \(document.complete), \(document.reason); "
                    + "mpv reached the end: \(played.reachedEnd), its log ends:\n\(played.log.suffix(1200)))")
                continue
            }
            runs.append("check --player mpv stalled \(document.stallCount) times (\(document.stalls.map(\.position))), mpv \(played.stalls)")
            if document.stallCount == played.stalls {
                #expect((played.stalls > 0) == stalls, "the case must \(stalls ? "" : "not ")stall for mpv: \(played.stalls) stalls")
                return
            }
        }
        Issue.record("no run of three was whole and agreed: \(runs.joined(separator: "; "))")
    }

    @Test("check --record-trace on a throttled URL that stalls, replayed by simulate --trace on the same file, stalls as often and as long (10 %)")
    func recordedTraceReplays() throws {
        let directory = try CheckServers.temporaryDirectory("bufprobe-trace")
        defer { try? FileManager.default.removeItem(at: directory) }
        let rate = Self.rate(0.6, size: try Self.makeClip(in: directory))
        let server = try NginxServer(rates: [rate], extraRoots: ["clip": directory])
        struct Simulated: Decodable {
            var stallCount: Int
            var stallTime: Double
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        // Once in ten full-suite runs on a loaded 2-core machine, the replay stalled 3.6 s where the check
        // stalled 5.4 s (as every run here does; 8 of 8 beside four busy loops replayed within 0.04 s). That
        // run's trace was not kept, so a run that disagrees is played once more, and the failure shows every
        // run's figures and the trace's non-empty rows, to find out what the recording missed.
        var runs: [String] = []
        for attempt in 1...2 {
            let trace = directory.appendingPathComponent("trace-\(attempt).txt").path
            let checked = try BufprobeProcess.run(
                ["check", "--json", "--record-trace", trace, server.url("clip/clip.mp4", bytesPerSecond: rate)])
            let check = try CheckDocument.decode(checked.stdout)
            #expect(check.complete, "\(check.reason)")
            #expect(check.stallCount > 0, "the case must stall for the comparison to mean anything")
            let simulated = try BufprobeProcess.run(
                ["simulate", directory.appendingPathComponent("clip.mp4").path, "--trace", trace, "--json"])
            #expect(simulated.status == 0 || simulated.status == 1, "\(simulated.stderr)")
            let replay = try decoder.decode(Simulated.self, from: Data(simulated.stdout.utf8))
            if replay.stallCount == check.stallCount, abs(replay.stallTime - check.stallTime) <= check.stallTime * 0.10 {
                return
            }
            let rows = ((try? String(contentsOfFile: trace, encoding: .utf8)) ?? "").split(separator: "\n")
                .filter { !$0.hasPrefix("#") && $0.split(separator: " ").dropFirst().first != "0" }
            runs.append("""
                run \(attempt): check stalled \(check.stallCount) times, \(check.stallTime) s \
                (\(check.stalls.map { "\($0.position) s for \($0.duration) s" })); simulate on its trace \
                \(replay.stallCount) times, \(replay.stallTime) s; the trace's non-empty rows: \(rows.joined(separator: " | "))
                """)
        }
        Issue.record("the replay disagreed with the check in both runs (count equal, time within 10 %): \(runs.joined(separator: "\n"))")
    }
}
