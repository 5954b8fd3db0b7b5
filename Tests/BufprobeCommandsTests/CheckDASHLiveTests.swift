import Foundation
import Testing
import TestSupport

/// `ffmpeg -re ... -c copy -f dash -streaming 1 -ldash 1` writing a live stream into a temporary directory
/// served by `dash_live_origin.py` (which holds a request for a segment not written yet, as LL-DASH origins
/// do: nginx answers 404 and FFmpeg 5.1's dash demuxer then runs ahead of the live edge), with UTCTiming
/// from the same origin. The muxer is killed when the test ends.
///
/// The muxer copies an encoding made once (`media`), not encoding live: an encoder sharing two cores with
/// the suite's shards fell seconds behind the clock its manifest promised (CI: a segment listed as
/// available, held 3 s by the origin and still not written, so a correct `missing_segment`), and x264's
/// average-bit-rate warm-up could put three segments more than 10% above the `@bandwidth` the muxer wrote
/// (a correct `bandwidth_exceeded`). The encoding is CBR (`nal-hrd=cbr`): the muxer declares its average
/// (300.4 kbit/s) and any three consecutive segments after the second, as the muxer cuts them, are at most
/// 6.6% above it (measured over all 180, the test's muxer options with `-window_size 0`).
final class LiveDASHSource {
    let directory: URL
    let origin: FixtureServer
    private let muxer: Process

    /// Starts the origin (answering 404 for every `dropEvery`-th segment when given) and the muxer (`-use_timeline` as given, 1 s segments, a 4 s window, a 2 s
    /// minimumUpdatePeriod, a 3 s target latency), and waits until the stream is older than its window
    /// (FFmpeg 5.1 computes the oldest segment as `now - availabilityStartTime - timeShiftBufferDepth` in
    /// unsigned arithmetic, which wraps while the stream is younger).
    init(timeline: Bool, dropEvery: Int? = nil) throws {
        directory = try CheckServers.temporaryDirectory("bufprobe-dash-live")
        origin = try FixtureServer(
            script: "dash_live_origin.py", arguments: ["--root", directory.path] + (dropEvery.map { ["--drop-every=\($0)"] } ?? []))
        let media = try Self.media()
        let muxer = Process()
        muxer.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        muxer.currentDirectoryURL = directory
        muxer.arguments = [
            "ffmpeg", "-nostdin", "-v", "error", "-re", "-i", media, "-c", "copy", "-f", "dash", "-streaming", "1", "-ldash", "1", "-seg_duration", "1", "-frag_duration", "0.2",
            "-frag_type", "duration", "-window_size", "4", "-update_period", "2", "-use_timeline", timeline ? "1" : "0",
            "-utc_timing_url", "http://127.0.0.1:\(origin.port)/time", "-target_latency", "3", "live.mpd",
        ]
        muxer.standardOutput = FileHandle.nullDevice
        muxer.standardError = FileHandle.nullDevice
        try muxer.run()
        self.muxer = muxer
        let manifest = directory.appendingPathComponent("live.mpd").path
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: manifest), Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        guard FileManager.default.fileExists(atPath: manifest) else {
            stop()
            throw CheckServers.ServerError("ffmpeg wrote no live.mpd within 20 s")
        }
        Thread.sleep(forTimeInterval: 5.5)
    }

    /// Seconds of media the encoding holds: far more than a test (or the fixture recorder) plays.
    static let mediaSeconds = 180

    /// The source's encoding (320x180 at 25 frames/s, a keyframe a second, 300 kbit/s CBR video, 64 kbit/s
    /// AAC), made once under `.build/test-cache` (under a lock, so suites started together wait for the
    /// first) and kept between runs.
    static func media() throws -> String {
        try TestCache.exclusively("dash-live-source") { try encode() }
    }

    private static func encode() throws -> String {
        let path = TestCache.folder.appendingPathComponent("dash-live-source-v1-\(mediaSeconds)s.mp4").path
        if FileManager.default.fileExists(atPath: path) { return path }
        let partial = "\(path).partial"
        let encoder = Process()
        encoder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        encoder.arguments = [
            "ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "\(mediaSeconds)",
            "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-g", "25",
            "-b:v", "300k", "-maxrate", "300k", "-bufsize", "100k", "-x264-params", "nal-hrd=cbr",
            "-c:a", "aac", "-b:a", "64k", "-f", "mp4", partial,
        ]
        encoder.standardOutput = FileHandle.nullDevice
        try encoder.run()
        encoder.waitUntilExit()
        guard encoder.terminationStatus == 0 else {
            throw CheckServers.ServerError("ffmpeg could not encode the live DASH source (exit \(encoder.terminationStatus))")
        }
        guard rename(partial, path) == 0 else { throw CheckServers.ServerError("could not move the encoding to \(path)") }
        return path
    }

    /// The manifest's URL.
    var url: String { "http://127.0.0.1:\(origin.port)/live.mpd" }

    private func stop() {
        // SIGKILL: a child of the test process inherits its blocked SIGTERM and SIGINT.
        if muxer.isRunning { kill(muxer.processIdentifier, SIGKILL) }
        muxer.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}

/// The parts of `check --json` these tests read.
struct LiveDocument: Decodable {
    struct DASHLive: Decodable {
        struct Counts: Decodable {
            var earlyRequest: Int
            var missingSegment: Int
            var reloadLate: Int
            var reloadEarly: Int
            var windowMismatch: Int
            var clockUnavailable: Int
        }
        var clock: String
        var clockOffset: Double
        var minimumUpdatePeriod: Double?
        var timeShiftBufferDepth: Double?
        var targetLatency: Double?
        var listedWindow: Double?
        var mpdReloads: Int
        var segmentsRequested: Int
        struct Event: Decodable {
            var kind: String
            var url: String
            var message: String
        }
        var events: [Event]
        var startSegment: Int64?
        var startHoldBack: Double?
        var counts: Counts
    }
    struct Latency: Decodable {
        struct HoldBack: Decodable {
            var applied: Double?
            var target: Double?
        }
        var atStart: Double?
        var atEnd: Double?
        var drift: Double?
        var clock: String
        var holdBack: HoldBack
    }
    struct VariantCheck: Decodable {
        struct Problem: Decodable {
            var kind: String
            var message: String
        }
        struct Measured: Decodable {
            var width: Int?
            var height: Int?
        }
        var measured: Measured
        var problems: [Problem]
    }
    var verdict: String
    var reason: String
    var stallCount: Int
    var variantChecks: [VariantCheck]?
    var stallTime: Double
    var dashLive: DASHLive?
    var liveLatency: Latency?

    static func decode(_ text: String) throws -> LiveDocument {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(LiveDocument.self, from: Data(text.utf8))
    }
}

@Suite("bufprobe check on a live DASH stream made by ffmpeg at test time", .serialized)
struct CheckDASHLiveTests {
    /// 1 s segments: what the bounds below are made of.
    static let segment = 1.0

    @Test("A SegmentTimeline: MPD reloads counted, the start at the window's oldest segment and the latency it gives")
    func timelineReloads() throws {
        let source = try LiveDASHSource(timeline: true)
        let result = try BufprobeProcess.run(["check", "--json", "--duration", "8s", "--all-variants", source.url], timeout: 60)
        let document = try LiveDocument.decode(result.stdout)
        #expect(result.status == 0, "\(document.reason)")
        let dash = try #require(document.dashLive, "\(result.stdout)")
        let latency = try #require(document.liveLatency, "\(result.stdout)")
        // FFmpeg 5.1 reloads a timeline manifest before every segment (several times each): counted, and
        // far more often than minimumUpdatePeriod asks.
        #expect(dash.mpdReloads >= 4)
        #expect(dash.counts.reloadEarly > 0 && dash.counts.reloadLate == 0)
        // It starts 60 s before the timeline's end, here the oldest of the 4 listed: 4 s behind the edge.
        #expect(dash.listedWindow == 4 && dash.counts.windowMismatch == 0)
        let holdBack = try #require(latency.holdBack.applied)
        #expect(abs(holdBack - 4) <= Self.segment, "hold-back \(holdBack)")
        // The backlog arrives at once: latency at start is the hold-back, plus at most a segment.
        let atStart = try #require(latency.atStart)
        #expect(atStart >= holdBack - 0.5 && atStart <= holdBack + Self.segment + 0.5, "latency \(atStart), hold-back \(holdBack)")
        #expect(dash.counts.missingSegment == 0)
        // --all-variants on a live manifest: the video representation's newest complete segments, fetched.
        let checks = try #require(document.variantChecks)
        #expect(checks.count == 1)
        #expect(checks.first?.measured.width == 320 && checks.first?.measured.height == 180)
        #expect(checks.first?.problems.contains { $0.kind == "resolution_mismatch" || $0.kind == "codecs_mismatch" || $0.kind == "segment_failed" } == false, "\(checks.first?.problems.map(\.message) ?? [])")
    }

    @Test("Segments the manifest lists but the origin lost (every fourth answers 404) are missing_segment, and the verdict is degraded")
    func missingSegments() throws {
        let source = try LiveDASHSource(timeline: true, dropEvery: 4)
        let result = try BufprobeProcess.run(["check", "--json", "--duration", "8s", source.url], timeout: 60)
        let document = try LiveDocument.decode(result.stdout)
        let dash = try #require(document.dashLive, "\(result.stdout)")
        // FFmpeg starts at the oldest of the 4 listed segments: one of them is lost, asked for once available.
        #expect(dash.counts.missingSegment >= 1, "\(dash.events.map(\.message))")
        let missing = try #require(dash.events.first { $0.kind == "missing_segment" })
        #expect(missing.message == "\(source.url) lists \(missing.url), inside its availability window, but it answered HTTP 404.")
        #expect(missing.url.hasSuffix("0.m4s") || missing.url.hasSuffix("4.m4s") || missing.url.hasSuffix("8.m4s"), "\(missing.url)")
        #expect(document.verdict == "degraded" && result.status == 1, "\(document.reason)")
        #expect(document.reason.contains("did not serve"), "\(document.reason)")
    }
}
