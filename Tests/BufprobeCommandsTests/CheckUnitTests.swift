@testable import BufprobeCommands
@testable import CheckEngine
import MediaIO
import PlaybackModel
import ProgressLine
import Testing
import InputReading

/// The small parsers and rules `check` is built from.
@Suite("check: option parsing, variant choice, FFmpeg log facts")
struct CheckUnitTests {
    @Test("--variant parses names, positions below 1000 and bandwidths", arguments: [
        ("best", VariantChoice.best), ("LOWEST", .lowest), ("0", .index(0)), ("999", .index(999)),
        ("1000", .bandwidth(1000)), ("400k", .bandwidth(400_000)), ("1.5M", .bandwidth(1_500_000)),
    ])
    func variantParses(text: String, choice: VariantChoice) {
        #expect(VariantChoice(argument: text) == choice)
    }

    @Test("--variant rejects anything else", arguments: ["", "fastest", "-1", "10x", "k"])
    func variantRejects(text: String) {
        #expect(VariantChoice(argument: text) == nil)
    }

    static let bandwidths: [Int64?] = [500_000, 250_000, 1_000_000, nil]

    @Test("a variant choice picks by declared bandwidth (none declared ranks lowest), or by position", arguments: [
        (VariantChoice.best, 2), (.lowest, 3), (.index(0), 0), (.index(3), 3), (.bandwidth(600_000), 0),
        (.bandwidth(2_000_000), 2), (.bandwidth(100_000), 3), (.bandwidth(250_000), 1),
    ])
    func variantSelects(choice: VariantChoice, position: Int) {
        #expect(choice.select(bandwidths: Self.bandwidths) == position)
    }

    @Test("a variant position past the end selects nothing")
    func variantOutOfRange() {
        #expect(VariantChoice.index(4).select(bandwidths: Self.bandwidths) == nil)
        #expect(VariantChoice.best.select(bandwidths: []) == nil)
    }

    @Test("--rate parses multiples of real time and bit rates", arguments: [
        ("2x", ReadRate.realtime(2)), ("0.5X", .realtime(0.5)), ("400k", .bitsPerSecond(400_000)),
        ("1.5M", .bitsPerSecond(1_500_000)), ("250000", .bitsPerSecond(250_000)),
    ])
    func rateParses(text: String, rate: ReadRate) {
        #expect(ReadRate(argument: text) == rate)
    }

    @Test("--rate rejects zero, negatives and words", arguments: ["0x", "-2x", "0", "fast", "x", "inf"])
    func rateRejects(text: String) {
        #expect(ReadRate(argument: text) == nil)
    }

    @Test("a paced packet is released at its media offset over the multiple, or its byte end over the bit rate")
    func releaseTimes() {
        #expect(ReadRate.realtime(2).releaseTime(mediaOffset: 4, firstDelivery: 0.5, byteEnd: 0) == 2.5)
        #expect(ReadRate.bitsPerSecond(8000).releaseTime(mediaOffset: 99, firstDelivery: 0.5, byteEnd: 2000) == 2)
    }

    @Test("FFmpeg's log names the skipped HLS segment, its URL and its HTTP status")
    func segmentFromLog() {
        var lines = FFmpegLines()
        for (line, problem) in [
            ("[hls @ 0x55681b40e400] Opening 'http://h/low/seg001.ts' for reading", false),
            ("[hls @ 0x55681b40e400] Opening 'http://h/low/seg002.ts' for reading", false),
            ("[http @ 0x55681b419780] HTTP error 404 Not Found", true),
            ("[hls @ 0x55681b40e400] Failed to open segment 2 of playlist 0", true),
            ("[hls @ 0x55681b40e400] Failed to open segment 2 of playlist 0", true),
        ] {
            lines.record(FFmpegLogLine(level: problem ? .warning : .info, line: line))
        }
        let segment = FFmpegLines.FailedSegment(
            sequence: 2, playlist: 0, url: "http://h/low/seg002.ts",
            error: .init(url: "http://h/low/seg002.ts", status: 404, text: "Not Found"))
        #expect(lines.failedSegments == [segment])
        #expect(CheckSentence.describe(segment) == "segment http://h/low/seg002.ts could not be loaded (HTTP 404 Not Found)")
        #expect(lines.problems.first == "[http] HTTP error 404 Not Found")
    }

    @Test("FFmpeg's log tells a body cut short from its declared length")
    func prematureEndFromLog() {
        var lines = FFmpegLines()
        lines.record(FFmpegLogLine(level: .info, line: "[http @ 0x563e78029c40] Stream ends prematurely at 100000, should be 267227"))
        #expect(lines.prematureEnd == .init(received: 100_000, expected: 267_227))
    }

    @Test("URLs are checked before FFmpeg sees them", arguments: [
        ("http://", "names no host"), ("http://h:70000/x", "outside 1-65535"), ("http://[::1/x", "not a valid URL"),
        ("https://a b/", "contains spaces"),
    ])
    func malformedURLs(input: String, words: String) throws {
        let sentence = try #require(URLCheck.problem(with: input))
        #expect(sentence.contains(words), "\(sentence)")
    }

    @Test("well-formed URLs and unknown schemes go to FFmpeg", arguments: [
        "http://127.0.0.1:8080/a.m3u8", "https://[::1]:443/x.mpd", "srt://127.0.0.1:9000", "udp://@:1234",
        "nosuchscheme://x/y",
    ])
    func wellFormedURLs(input: String) {
        #expect(URLCheck.problem(with: input) == nil)
    }

    static func ranges(_ pairs: [(Double, Double)]) -> TimeRanges {
        TimeRanges(pairs.map { TimeRange(start: $0.0, end: $0.1) }, tolerance: 0.1)
    }

    static func skipped() -> FFmpegLines {
        var lines = FFmpegLines()
        lines.record(FFmpegLogLine(level: .info, line: "[hls @ 0x1] Opening 'http://h/seg002.ts' for reading"))
        lines.record(FFmpegLogLine(level: .error, line: "[http @ 0x2] HTTP error 404 Not Found"))
        lines.record(FFmpegLogLine(level: .warning, line: "[hls @ 0x1] Failed to open segment 2 of playlist 0"))
        return lines
    }

    @Test("complete media ends the check normally even when FFmpeg skipped a segment of another variant")
    func completeMediaIsNotEarly() {
        #expect(CheckSentence.earlyEnd(source: "s", lines: Self.skipped(), loaded: Self.ranges([(0, 10)]), declared: .init(end: 10, duration: 10)) == nil)
        #expect(CheckSentence.earlyEnd(source: "s", lines: FFmpegLines(), loaded: Self.ranges([(0, 9.9)]), declared: .init(end: 10, duration: 10)) == nil)
    }

    @Test("a hole or a short end with a skipped segment names the segment; a short end alone names the times")
    func incompleteMedia() throws {
        let hole = try #require(CheckSentence.earlyEnd(
            source: "s", lines: Self.skipped(), loaded: Self.ranges([(0, 4), (6, 10)]), declared: .init(end: 10, duration: 10)))
        #expect(hole == "s is missing media from 4.000 s: segment http://h/seg002.ts could not be loaded (HTTP 404 Not Found).")
        let short = try #require(CheckSentence.earlyEnd(
            source: "s", lines: FFmpegLines(), loaded: Self.ranges([(0, 6)]), declared: .init(end: 10, duration: 10)))
        #expect(short == "s stops short of what it declares: 10.000 s declared, 6.000 s read (4.000 s missing).")
        let nothing = try #require(CheckSentence.earlyEnd(source: "s", lines: FFmpegLines(), loaded: Self.ranges([]), declared: .init(end: 10, duration: 10)))
        #expect(nothing == "s ended before any playable media arrived.")
    }

    @Test("the live line shows media time from the playable start, every received range and a marker per stall")
    func progressSnapshot() throws {
        // A session whose playable media starts at 1.4 s (MPEG-TS), stalled at 3.4 s with a hole from 3.4 to 5.4 s.
        var session = PlaybackSession(playableStreams: [0], duration: .finite(10), policy: BufferPolicy(), mediaStart: 1.4, now: 0)
        for (pts, end) in [(1.4, 3.4), (5.4, 6.4)] {
            _ = session.receive(
                MediaPacket(stream: 0, pts: pts, dts: pts, duration: end - pts, size: 1000, position: nil, isKeyframe: true), now: 0)
        }
        try #require(session.origin == 1.4)
        var progress = CheckProgress(
            source: "u", elapsed: 3, state: .stalled(position: 3.4, since: 2.5), currentTime: session.presentationTime(3.4),
            bufferedAhead: 0, stallPositions: [session.presentationTime(3.4)], received: session.presentedReceived, duration: 10,
            throughput: 8000, realtimeFactor: 0.5)
        let snapshot = progress.snapshot
        #expect(snapshot.state == .stalled)
        #expect(abs(snapshot.currentTime - 2) < 1e-9)
        #expect(snapshot.loaded.count == 2)
        #expect(abs(snapshot.loaded[1].lowerBound - 4) < 1e-9)
        #expect(snapshot.markers.map(\.kind) == [.stall])
        progress = CheckProgress(source: "u", elapsed: 0.2)
        #expect(progress.snapshot.isIndeterminate)
        #expect(progress.snapshot.state == .loading)
    }
}
