import Foundation
import MediaIO
import PlaybackModel
import Testing
import TestSupport

/// The parts of `probe --json` the hostile-input tests read.
private struct ProbeFigures: Decodable {
    struct Stream: Decodable {
        var index: Int
        var type: String
        var packets: Int
        var averageBitRate: Double?
        var peakBitRate: Double?
    }
    struct Span: Decodable {
        var start: Double
        var end: Double
    }
    var streams: [Stream]
    var packetSpan: Span?
    var loadedRanges: [[Double]] = []
    var complete: Bool
    var warnings: [String]
    var error: String?

    static func decode(_ text: String) throws -> ProbeFigures {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(ProbeFigures.self, from: Data(text.utf8))
    }
}

/// Issue 10's hostile files and servers: no crash, no hang, an answer within the bounds.
@Suite("hostile input and faults")
struct HostileInputTests {
    @Test("a stream that appears after opening (a new MPEG-TS PID) is counted like ffprobe counts it")
    func streamAddedWhileReading() throws {
        let media = try HostileMedia()
        defer { media.remove() }
        let path = try media.newPIDs()
        let reference = try Samples.ffprobe(path)
        #expect(reference.packets.count == 3)
        let result = try BufprobeProcess.run(["probe", "--json", path])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try ProbeFigures.decode(result.stdout)
        #expect(document.streams.count == reference.packets.count)
        for stream in document.streams {
            #expect(stream.packets == reference.packets[stream.index], "stream \(stream.index)")
        }
        let check = try BufprobeProcess.run(["check", "--progress", "none", path])
        #expect(check.status == 0, "\(check.stderr)")
    }
}

/// Issue 10's time bounds: every wait on a peer ends within `--timeout` + 1 s.
@Suite("hostile servers: time bounds")
struct HostileTimeBoundTests {
    @Test("probe gives up on a server that accepts and never answers, after --timeout")
    func probeTimesOut() throws {
        let server = try FaultServer()
        let result = try BufprobeProcess.run(["probe", "--json", "--timeout", "2", server.url("silent/h264-aac.mp4")], timeout: 3)
        #expect(result.status == 2, "\(result.stderr)")
        let document = try ProbeFigures.decode(result.stdout)
        #expect(document.error?.contains("--timeout") == true, "\(document.error ?? "")")
    }

    @Test("a live HLS playlist that never grows stops check within --timeout + 1 s of the last media")
    func stalledLivePlaylist() throws {
        let server = try FaultServer(script: "hostile_server.py")
        // The three segments arrive at once; then only playlist reloads, which bring nothing new.
        let result = try BufprobeProcess.run(
            ["check", "--json", "--timeout", "2", server.url("stalled/hls/low/index.m3u8")], timeout: 3.5)
        #expect(result.status == 2, "\(result.stderr)")
        let document = try CheckDocument.decode(result.stdout)
        #expect(document.reason.contains("--timeout"), "\(document.reason)")
        #expect(document.sampledDuration <= 3, "sampled \(document.sampledDuration) s")
    }

    @Test("probe reads a stalled live playlist up to --timeout, then reports it incomplete (exit 3)")
    func probeStalledLivePlaylist() throws {
        let server = try FaultServer(script: "hostile_server.py")
        let result = try BufprobeProcess.run(
            ["probe", "--json", "--timeout", "2", server.url("stalled/hls/low/index.m3u8")], timeout: 3.5)
        #expect(result.status == 3, "\(result.stderr)")
        let document = try ProbeFigures.decode(result.stdout)
        #expect(!document.complete)
        #expect(document.warnings.contains { $0.contains("--timeout") }, "\(document.warnings)")
    }
    @Test("probe of a LOCAL live playlist that never grows ends after --timeout too (exit 3), not after 1000 reloads")
    func probeLocalStalledLivePlaylist() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bufprobe-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let segment = folder.appendingPathComponent("seg000.ts").path
        try FileManager.default.copyItem(atPath: BufprobeProcess.sample("h264-aac.ts"), toPath: segment)
        let playlist = folder.appendingPathComponent("live.m3u8").path
        // No #EXT-X-ENDLIST: FFmpeg's HLS demuxer reloads it for ever, polling only the interrupt callback.
        try "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\n\(segment)\n".write(toFile: playlist, atomically: true, encoding: .utf8)
        let result = try BufprobeProcess.run(["probe", "--json", "--timeout", "2", playlist], timeout: 4)
        #expect(result.status == 3, "\(result.stderr)")
        let document = try ProbeFigures.decode(result.stdout)
        #expect(!document.complete)
        #expect(document.warnings.contains { $0.contains("--timeout") }, "\(document.warnings)")
    }
}

/// Issue 10's remote playlists that attack the reader: endless bodies, loops, local files, silence.
@Suite("hostile servers: playlists")
struct HostilePlaylistTests {
    @Test("a playlist body that never ends is refused past 16 MiB, by probe and by check", arguments: ["probe", "check"])
    func endlessPlaylist(command: String) throws {
        let server = try FaultServer(script: "hostile_server.py")
        let result = try BufprobeProcess.run([command, "--progress", "none", server.url("endless/live.m3u8")], timeout: 60)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("larger than 16 MiB"), "\(result.stderr)")
    }

    @Test("a live media playlist given as the input is refused at its first load when over 16 MiB, naming it and its size")
    func firstLoadOverTheReadLimit() throws {
        let server = try FaultServer(script: "hostile_server.py")
        // 470,000 entries of 37 bytes: 17.4 MB, over the 16 MiB (16.78 MB) limit at the first request.
        let playlist = server.url("growing/hls/low/index.m3u8?id=over&entries=1&start=470000")
        let result = try BufprobeProcess.run(["check", "--progress", "none", playlist], timeout: 60)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("the playlist \(playlist) is larger than 16 MiB (17."), "\(result.stderr)")
        #expect(result.stderr.contains("MB by its Content-Length)"), "\(result.stderr)")
    }

    @Test("the first load of a live media playlist is windowed before FFmpeg parses it: 300,000 entries play from the edge, and cost no more than the window")
    func firstLoadWindowed() throws {
        let server = try FaultServer(script: "hostile_server.py")
        let small = try BufprobeProcess.run(
            ["check", "--json", "--progress", "none", "--duration", "4s", server.url("growing/hls/low/index.m3u8?id=small&entries=1")],
            timeout: 60)
        let large = try BufprobeProcess.run(
            ["check", "--json", "--progress", "none", "--duration", "4s",
             server.url("growing/hls/low/index.m3u8?id=large&entries=1&start=300000")],
            timeout: 60)
        // Pass, or degraded by a short stall on a loaded machine (the playlist grows by one 2 s segment a reload).
        #expect([0, 1].contains(small.status) && [0, 1].contains(large.status), "\(small.stderr)\n\(large.stderr)")
        // It played: the window's segments were read and decoded. How much of the 4 s is played depends on the
        // startup, which on a loaded machine waits seconds for the test server to write the 11 MB playlist
        // (2.86 s seen, leaving 1.16 s played), so the figure is not held to a number of seconds.
        let report = try #require(try JSONSerialization.jsonObject(with: Data(large.stdout.utf8)) as? [String: Any])
        #expect((report["played"] as? Double ?? 0) > 0, "\(large.stdout)")
        #expect(report["startup_delay"] as? Double != nil, "\(large.stdout)")
        // FFmpeg's own parse of 300,000 segments costs over 60 MB; the window of 5,000 about 1 MB.
        let smallPeak = try #require(small.peakResidentKilobytes)
        let largePeak = try #require(large.peakResidentKilobytes)
        #expect(largePeak - smallPeak <= 16 * 1024, "peak \(largePeak) kB against \(smallPeak) kB for a 2-entry playlist")
    }

    @Test("a playlist body that never ends, sent too slowly to reach 16 MiB, fails as unfinished, not as silence",
          arguments: ["probe", "check"])
    func slowEndlessPlaylist(command: String) throws {
        let server = try FaultServer(script: "hostile_server.py")
        let result = try BufprobeProcess.run(
            [command, "--progress", "none", "--timeout", "3", server.url("slow-endless/live.m3u8")], timeout: 30)
        #expect(result.status == 2, "\(result.stderr)")
        // Before (issue 23): "could not be opened: nothing arrived within the 3 s timeout" though ~1 MB had.
        #expect(!result.stderr.contains("nothing arrived"), "\(result.stderr)")
        #expect(result.stderr.contains("had not ended"), "\(result.stderr)")
    }

    @Test("a DASH manifest body that never ends is read before opening for at most the pre-read budget, then fails as unfinished")
    func slowEndlessManifest() throws {
        let server = try FaultServer(script: "hostile_server.py")
        // Before: the read before opening (live DASH) took the trickle to 16 MiB, 55 s with --timeout 3.
        let result = try BufprobeProcess.run(
            ["check", "--progress", "none", "--timeout", "3", server.url("slow-endless/live.mpd")], timeout: 30)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("had not ended"), "\(result.stderr)")
    }

    @Test("a playlist #EXTINF beyond the documented 7 days is refused as on the command line; no JSON number is \"inf\"")
    func hugeExtinf() throws {
        let server = try FaultServer(script: "hostile_server.py")
        let url = server.url("huge-extinf/index.m3u8")
        for arguments in [["check", "--json", "--all-variants", url], ["probe", "--json", url]] {
            let result = try BufprobeProcess.run(arguments + ["--progress", "none", "--timeout", "5"], timeout: 30)
            #expect(!result.stdout.contains("\"inf\""), "\(arguments[0]): \(result.stdout)")
            #expect(!result.stdout.contains("\"-inf\"") && !result.stdout.contains("\"nan\""), "\(result.stdout)")
        }
        // simulate reads local playlists itself. Before (issue 23): exit 0 with "played" : "inf",
        // "position" : "inf".
        let directory = try CheckServers.temporaryDirectory("bufprobe-extinf")
        defer { try? FileManager.default.removeItem(at: directory) }
        let playlist = directory.appendingPathComponent("index.m3u8")
        let segments = (0..<3).map { BufprobeProcess.sample("hls/low/seg00\($0).ts") }
        try ("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\n\(segments[0])\n#EXTINF:1e308,\n\(segments[1])\n"
            + "#EXTINF:2.0,\n\(segments[2])\n#EXT-X-ENDLIST\n").write(to: playlist, atomically: true, encoding: .utf8)
        let simulated = try BufprobeProcess.run(["simulate", "--json", "--bandwidth", "2Mbit", playlist.path], timeout: 30)
        #expect(!simulated.stdout.contains("\"inf\""), "\(simulated.stdout)")
        #expect(simulated.status != 0 && simulated.stderr.contains("longer than 7 days"), "\(simulated.stderr)")
        #expect(throws: HLSPlaylistError.self) {
            try HLSPlaylist.parse("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:1e308,\na.ts\n#EXT-X-ENDLIST\n")
        }
        #expect(throws: HLSPlaylistError.self) { try HLSPlaylist.parse("#EXTM3U\n#EXT-X-TARGETDURATION:1e308\n#EXTINF:2,\na.ts\n") }
        #expect(ResourceLimits.longestDuration == Seconds.maximum, "one limit for playlists and the command line")
    }

    @Test("a master that lists itself, or two that list each other, fails naming the loop after a few requests",
          arguments: ["self.m3u8", "a.m3u8"])
    func playlistLoop(name: String) throws {
        let server = try FaultServer(script: "hostile_server.py")
        let result = try BufprobeProcess.run(
            ["check", "--progress", "none", "--timeout", "5", server.url("count/loop/\(name)")], timeout: 20)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("loop"), "\(result.stderr)")
        let requests = try Samples.run("python3", [
            "-c", "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())",
            server.url("requests"),
        ]).split(separator: "\n")
        // Before: ~150 requests a second for the whole timeout.
        #expect(requests.count <= 2 * 4, "\(requests.count) requests")
    }

    @Test("requests to one origin stay within the burst plus 10 per second, however fast the segments come")
    func requestPace() throws {
        let server = try FaultServer(script: "hostile_server.py")
        let result = try BufprobeProcess.run(["probe", "--json", server.url("count/many/index.m3u8")], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let times = try Samples.run("python3", [
            "-c", "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())",
            server.url("requests"),
        ]).split(separator: "\n").compactMap { $0.split(separator: " ").first.flatMap { Double($0) } }
        #expect(times.count >= 40)
        // A token bucket of 20 refilled at 10/s: no interval of length t holds more than 20 + 10 t requests.
        for (index, start) in times.enumerated() {
            for end in times[index...] {
                let count = times.filter { $0 >= start && $0 <= end }.count
                #expect(Double(count) <= 21 + 10 * (end - start), "\(count) requests in \(end - start) s")
            }
        }
    }

    @Test("a remote master whose variant is a local file (a FIFO) never opens it: a warning, the other variant read")
    func localFileVariant() throws {
        let media = try HostileMedia()
        defer { media.remove() }
        let fifo = media.path("variant.m3u8")
        #expect(mkfifo(fifo, 0o600) == 0)
        let server = try FaultServer(script: "hostile_server.py")
        let url = server.url("local/master.m3u8?path=\(fifo)")
        let probe = try BufprobeProcess.run(["probe", "--json", url], timeout: 20)
        #expect(probe.status == 0, "\(probe.stderr)")
        let document = try ProbeFigures.decode(probe.stdout)
        #expect(document.warnings.contains { $0.contains("file://\(fifo)") && $0.contains("not read") }, "\(document.warnings)")
        let check = try BufprobeProcess.run(["check", "--progress", "none", url], timeout: 20)
        #expect(check.status == 1, "\(check.stderr)")
        #expect(check.stdout.contains("file://\(fifo)"), "\(check.stdout)")
    }

    @Test("a variant playlist that never answers is skipped after half the timeout: the other plays, degraded")
    func silentVariant() throws {
        let server = try FaultServer(script: "hostile_server.py")
        let url = server.url("silent-variant/master.m3u8")
        let check = try BufprobeProcess.run(["check", "--json", "--timeout", "4", url], timeout: 20)
        #expect(check.status == 1, "\(check.stderr)")
        let document = try CheckDocument.decode(check.stdout)
        #expect(document.verdict == "degraded")
        #expect(document.reason.contains("silent.m3u8"), "\(document.reason)")
        let probe = try BufprobeProcess.run(["probe", "--json", "--timeout", "4", url], timeout: 20)
        #expect(probe.status == 0, "\(probe.stderr)")
        let figures = try ProbeFigures.decode(probe.stdout)
        #expect(figures.complete)
        #expect(figures.warnings.contains { $0.contains("silent.m3u8") }, "\(figures.warnings)")
    }
}

/// Samples with their tail cut at a byte offset, each of which libavformat reads to a plain end of file.
private let truncatedCuts: [(sample: String, bytes: Int)] = [
    ("cbr.wav", 100_894), ("cbr.wav", 55_548), ("cbr.wav", 149_025),
    ("dense-start.mp4", 658_809), ("fragmented.mp4", 42_809), ("fragmented.mp4", 39_592),
    ("h264-aac.flv", 269_299), ("vp9-opus.mkv", 313_825), ("vp9-opus.mkv", 308_418),
    ("h264-aac.mp4", 200_000), ("h264-aac.ts", 100_000),
    // A multiple of 192 bytes, not of 188: the first packets show 188-byte transport packets.
    ("h264-aac.ts", 98_112),
    // Formats without a declared length: the last Ogg page's and MPEG audio frame's own lengths tell.
    ("sine.opus", 49_562), ("sine.opus", 84_734), ("sine.mp3", 49_147), ("sine.mp3", 73_124),
]

/// Issue 10's verdicts that a monitor must get right.
@Suite("hostile input: verdicts")
struct HostileVerdictTests {
    @Test("a file whose tail was cut is incomplete (exit 3), never read to the end", arguments: truncatedCuts)
    func truncatedTail(sample: String, bytes: Int) throws {
        let media = try HostileMedia()
        defer { media.remove() }
        let data = try Data(contentsOf: URL(fileURLWithPath: BufprobeProcess.sample(sample)))
        #expect(bytes < data.count)
        let path = media.path("cut-\(bytes)-" + sample)
        try data.prefix(bytes).write(to: URL(fileURLWithPath: path))
        let result = try BufprobeProcess.run(["probe", "--json", path])
        #expect(result.status == 3, "\(sample) cut at \(bytes): \(result.stderr)")
        let document = try ProbeFigures.decode(result.stdout)
        #expect(!document.complete)
    }

    @Test("an HLS VOD whose timestamps restart at a discontinuity is one continuous timeline in probe and check")
    func discontinuity() throws {
        let media = try HostileMedia()
        defer { media.remove() }
        let playlist = try media.discontinuityPlaylist()
        let probe = try BufprobeProcess.run(["probe", "--json", playlist])
        #expect(probe.status == 0, "\(probe.stderr)")
        let document = try ProbeFigures.decode(probe.stdout)
        #expect(document.complete)
        let span = try #require(document.packetSpan)
        #expect(abs(span.end - span.start - 12) < 0.1, "span \(span)")
        #expect(document.loadedRanges.count == 1, "\(document.loadedRanges)")
        for stream in document.streams {
            let average = try #require(stream.averageBitRate)
            let peak = try #require(stream.peakBitRate)
            // Before: timestamps laid on top of each other doubled the bytes per second (~11x on real streams).
            #expect(peak < 1.5 * average, "stream \(stream.index): peak \(peak), average \(average)")
        }
        let check = try BufprobeProcess.run(["check", "--json", playlist])
        #expect(check.status == 0, "\(check.stderr)")
        let verdict = try CheckDocument.decode(check.stdout)
        #expect(verdict.verdict == "pass", "\(verdict.reason)")
    }

    @Test("probe on a remote HLS whose segment answers 404 warns, naming the segment, and exits 3")
    func probeMissingSegment() throws {
        let server = try FaultServer()
        let result = try BufprobeProcess.run(["probe", "--json", server.url("missing/seg002.ts/hls/low/index.m3u8")])
        #expect(result.status == 3, "\(result.stderr)")
        let document = try ProbeFigures.decode(result.stdout)
        #expect(!document.complete)
        #expect(document.warnings.contains { $0.contains("seg002.ts") && $0.contains("404") }, "\(document.warnings)")
    }
}
