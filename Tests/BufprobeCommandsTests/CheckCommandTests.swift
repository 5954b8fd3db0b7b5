import BufprobeCommands
@testable import CheckEngine
import Foundation
import Testing
import TestSupport

/// `bufprobe check` end to end without a server: bad inputs, usage errors, local files at `--rate`.
@Suite("bufprobe check, inputs and options")
struct CheckCommandTests {
    static let badInputs: [String] = [
        "http://127.0.0.1:PORT/h264-aac.mp4",  // PORT is replaced by a port nothing listens on
        "nosuchscheme://127.0.0.1/x.mp4",
        "http://",
        "http://127.0.0.1:99999/x.mp4",
        "http://[::1/x.mp4",
        "http://127.0.0.1:8a/x.mp4",
        "http://127.0.0.1/with space.mp4",
    ]

    @Test("an unreachable port, an unknown scheme or a malformed URL fails with one sentence in under a second",
        arguments: badInputs)
    func badInputFails(input: String) throws {
        let url = input.replacingOccurrences(of: "PORT", with: String(try CheckServers.freePort()))
        // The check's own clock must stay under a second; the process gets some slack to start on a
        // busy machine (the whole run is still killed after 3 s).
        let result = try BufprobeProcess.run(["check", "--json", "--progress", "none", url], timeout: 3)
        #expect(result.status == 2, "\(url): \(result.stderr)")
        let document = try CheckDocument.decode(result.stdout)
        #expect(document.sampledDuration < 1)
        #expect(document.verdict == "fail")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(lines.first?.hasPrefix("error: \(url)") == true, "\(result.stderr)")
        #expect(lines.first?.hasSuffix(".") == true)
    }

    @Test("usage errors exit 64", arguments: [
        ["--variant", "fastest", "x.mp4"],
        ["--rate", "fast", "x.mp4"],
        ["--rate", "2x", "http://127.0.0.1:1/x.mp4"],
        ["--start-threshold", "3", "--resume-threshold", "2", "x.mp4"],
        ["--header", "no colon", "x.mp4"],
        ["--timeout", "0", "x.mp4"],
        ["--parallel", "0", "x.mp4"],
    ])
    func usageErrors(arguments: [String]) throws {
        let result = try BufprobeProcess.run(["check"] + arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
    }

    @Test("--json writes every documented key, null where unknown")
    func jsonKeys() throws {
        let result = try BufprobeProcess.run(["check", "--json", BufprobeProcess.sample("h264-aac.mp4")])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let keys: Set<String> = [
            "schema_version", "source", "verdict", "reason", "open_time", "first_packet_time", "startup_delay",
            "throughput_bps", "realtime_factor", "declared_bit_rate", "measured_bit_rate", "peak_bit_rate",
            "stall_count", "stall_time", "stalls", "loaded_ranges", "sampled_duration", "live", "variants",
        ]
        #expect(keys.subtracting(object.keys).isEmpty, "missing: \(keys.subtracting(object.keys))")
        let failed = try BufprobeProcess.run(["check", "--json", "http://127.0.0.1:\(try CheckServers.freePort())/x.mp4"])
        let failure = try #require(try JSONSerialization.jsonObject(with: Data(failed.stdout.utf8)) as? [String: Any])
        #expect(keys.subtracting(failure.keys).isEmpty, "missing: \(keys.subtracting(failure.keys))")
        #expect(failure["startup_delay"] is NSNull)
    }

    @Test("a local file delivered at 2x real time passes; at 0.5x it stalls and is degraded", arguments: [("2x", 0), ("0.5x", 1)])
    func localRate(rate: String, status: Int32) throws {
        let result = try BufprobeProcess.run(["check", "--json", "--rate", rate, BufprobeProcess.sample("cbr.wav")])
        #expect(result.status == status, "\(result.stderr)")
        let document = try CheckDocument.decode(result.stdout)
        #expect((document.stallCount > 0) == (status == 1))
        let factor = try #require(document.realtimeFactor)
        #expect(status == 0 ? factor >= 1 : factor < 1)
    }

    @Test("--duration ends the sample early: the report covers what arrived and says it is not complete")
    func durationSamples() throws {
        let result = try BufprobeProcess.run(["check", "--json", "--rate", "1x", "--duration", "2", BufprobeProcess.sample("h264-aac.mp4")])
        let document = try CheckDocument.decode(result.stdout)
        #expect(!document.complete)
        #expect(document.sampledDuration >= 2)
        let end = try #require(document.loadedRanges.last?.last)
        #expect(end < 9, "received up to \(end) s of a 10 s file in a 2 s sample at 1x")
    }

    @Test("several inputs exit with the worst verdict", arguments: [1, 2])
    func worstVerdictWins(parallel: Int) throws {
        let result = try BufprobeProcess.run([
            "check", "--json", "--parallel", String(parallel), BufprobeProcess.sample("h264-aac.mp4"),
            "http://127.0.0.1:\(try CheckServers.freePort())/x.mp4",
        ])
        #expect(result.status == 2, "\(result.stderr)")
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let documents = try decoder.decode([CheckDocument].self, from: Data(result.stdout.utf8))
        #expect(documents.map(\.verdict) == ["pass", "fail"])
    }

    @Test("--max-buffer holds reading back: a file delivered at 10x is received no faster than it plays once the buffer is full")
    func maxBufferHoldsReadingBack() throws {
        let file = BufprobeProcess.sample("cbr.wav")
        let held = try BufprobeProcess.run(["check", "--json", "--rate", "10x", "--max-buffer", "2", file])
        let document = try CheckDocument.decode(held.stdout)
        #expect(held.status == 0, "\(held.stderr)")
        // The player plays from about 0.1 s on and keeps at most 2 s ahead, so the last of the 10 s
        // arrives only when about 8 s have been played.
        #expect(document.sampledDuration >= 7.5, "received in \(document.sampledDuration) s")
        #expect(document.stallCount == 0)
        #expect(document.complete)
    }

    @Test("FFmpeg lines logged in pieces are whole warnings (no lone '.' from 'Packet corrupt (...)' + '.')")
    func wholeWarningLines() throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: BufprobeProcess.sample("h264-aac.ts")))
        for index in 50_000..<52_000 { bytes[index] = 0x55 }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bufprobe-corrupt-\(UUID().uuidString).ts")
        try bytes.write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let result = try BufprobeProcess.run(["check", "--json", path.path])
        let document = try CheckDocument.decode(result.stdout)
        #expect(document.warnings.contains { $0.hasPrefix("[mpegts] Packet corrupt (") && $0.hasSuffix(").") }, "\(document.warnings)")
        #expect(!document.warnings.contains { $0.trimmingCharacters(in: .punctuationCharacters).isEmpty }, "\(document.warnings)")
        // The text summary prints the same warnings, one line each.
        let text = try BufprobeProcess.run(["check", path.path])
        #expect(text.stdout.contains("\n  warning:     [mpegts] Packet corrupt ("), "\(text.stdout)")
    }

    @Test("a file with a hole in its media is degraded even when it arrives at once, naming the hole")
    func holeDegrades() throws {
        let result = try BufprobeProcess.run(["check", "--json", BufprobeProcess.sample("gap.ts")])
        #expect(result.status == 1, "\(result.stderr)")
        let document = try CheckDocument.decode(result.stdout)
        #expect(document.verdict == "degraded")
        #expect(document.loadedRanges.count == 2)
        // Times count from the playable start (the video's first frame at 1.48 s): the hole at media
        // time 5.48 s is 4 s into what a viewer sees, and `time_origin` says where 0 is.
        #expect(document.reason.contains("hole in its media at 4.000 s"), "\(document.reason)")
        #expect(document.timeOrigin == 1.48)
        #expect(document.loadedRanges.first?.first == 0)
        // The player jumped the 3 s hole (it is under Player.maxGapJump) instead of stalling at it.
        #expect(document.skippedHoles == [[4, 7]])
        #expect(document.stallCount == 0)
    }
}
