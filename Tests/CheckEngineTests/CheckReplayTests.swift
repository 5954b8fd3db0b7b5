@testable import CheckEngine
import BufprobeOutput
import Foundation
import Logging
import PlaybackModel
import Testing
import TestSupport

/// `check --record-events` and its replay: the events a real check's machine handled, fed through a new
/// machine in virtual time, give the same report to the byte, and survive their JSON lines.
@Suite("check's events replayed", .ffmpegLog)
struct CheckReplayTests {
    /// Runs a check of `source` on a virtual clock, recording its events.
    static func recorded(_ source: String, settings: CheckSettings) throws -> (CheckReport, [CheckEvent.Timed]) {
        _ = CheckRunner(logger: Logger(label: "test"))
        let clock = ManualClock(at: 100)
        let session = CheckSession(source: source, settings: settings, clock: clock, unixTimeAtStart: 1_800_000_000, recordsEvents: true)
        clock.advance(to: 100.25)
        guard let report = clock.drive({ session.run() }) else {
            session.cancel()
            Issue.record("the session neither slept on the clock nor ended")
            throw CancellationError()
        }
        return (report, try #require(session.events()))
    }

    @Test(
        "a replay of a recorded check gives its JSON report byte for byte, through the JSON lines",
        arguments: ["h264-aac.mp4", "truncated.mp4", "gap.ts", "h264-aac.ts"])
    func replayIsTheRun(sample: String) throws {
        var settings = CheckSettings()
        settings.policy = BufferPolicy(startThreshold: 1, resumeThreshold: 2, forwardTarget: 3)
        let source = BufprobeProcess.sample(sample)
        let (report, events) = try Self.recorded(source, settings: settings)
        #expect(events.count > 10, "packets and waits are events")
        let lines = try CheckReplay.lines(events, source: source)
        let read = try CheckReplay.read(lines)
        #expect(read.header.source == source)
        #expect(read.events == events)
        let replayed = CheckReplay.report(read.events, source: source, settings: settings)
        #expect(try JSONOutput.string(replayed) == JSONOutput.string(report))
    }

    @Test("a replay with other options is another check: the same events under a stricter startup limit fail it")
    func replayAppliesItsOwnSettings() throws {
        var settings = CheckSettings()
        settings.policy = BufferPolicy(startThreshold: 1, resumeThreshold: 2, forwardTarget: 3)
        let source = BufprobeProcess.sample("h264-aac.mp4")
        let (report, events) = try Self.recorded(source, settings: settings)
        #expect(report.verdict == .pass, "\(report.reason)")
        settings.maxStartup = 0.1
        let strict = CheckReplay.report(events, source: source, settings: settings)
        #expect(strict.verdict != .pass)
    }

    @Test("a line that is not an event is named in the error")
    func unreadableLine() throws {
        let header = #"{"bufprobe":"0","schemaVersion":1,"source":"s"}"#
        #expect(throws: CheckReplay.Unreadable.self) { try CheckReplay.read(header + "\n{\"at\":1}\n") }
        #expect(throws: CheckReplay.Unreadable.self) { try CheckReplay.read("") }
    }
}
