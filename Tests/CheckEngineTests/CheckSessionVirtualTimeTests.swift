@testable import CheckEngine
import Logging
import PlaybackModel
import Testing
import TestSupport
import BufprobeOutput

/// `CheckSession`, the driver, over a real sample file with an injected `ManualClock`: every reading
/// of time and every wait goes through the clock, so the figures are the virtual clock's, exactly, and
/// the check takes no wall time whatever the machine's load (the clock advances only to the deadlines
/// the session sleeps until).
@Suite("CheckSession on a real file in virtual time", .ffmpegLog)
struct CheckSessionVirtualTimeTests {
    /// A 3 s forward target: reading h264-aac.mp4 (10 s) pauses at the target and waits on the clock for
    /// the player to play it down, so the waits are the clock's to end.
    static func settings(duration: Double? = nil) -> CheckSettings {
        var settings = CheckSettings()
        settings.policy = BufferPolicy(startThreshold: 1, resumeThreshold: 2, forwardTarget: 3)
        settings.duration = duration
        return settings
    }

    /// Runs a check of `sample` whose input opens at virtual time `openAt` (the clock stands still while
    /// the file is read: reading a local file takes no virtual time).
    static func check(_ sample: String, settings: CheckSettings, openAt: Double) throws -> (CheckReport, ManualClock) {
        // Installs bufprobe's FFmpeg log sink (the router the session registers with).
        _ = CheckRunner(logger: Logger(label: "test"))
        let clock = ManualClock(at: 100)
        let session = CheckSession(source: BufprobeProcess.sample(sample), settings: settings, clock: clock)
        clock.advance(to: 100 + openAt)
        guard let report = clock.drive({ session.run() }) else {
            // Stop the session, so a failure does not leave it running in the test process.
            session.cancel()
            Issue.record("the session neither slept on the clock nor ended")
            throw CancellationError()
        }
        return (report, clock)
    }

    @Test("startup delay is the virtual time the first packets arrived at; the waits are the clock's; the sample ends at the clock's end of input")
    func wholeFile() throws {
        let (report, clock) = try Self.check("h264-aac.mp4", settings: Self.settings(), openAt: 0.75)
        #expect(report.verdict == .pass, "\(report.reason)")
        // The clock read 0.75 s (after clock 0 at 100) while opening and reading the first packets: one
        // reading carries the start threshold (1 s), so playback started then.
        #expect(report.openTime == 0)
        #expect(report.firstPacketTime == 0.75)
        #expect(report.startupDelay == 0.75)
        #expect(report.stallCount == 0)
        #expect(report.complete)
        // Reading paused at the 3 s forward target and slept on the clock until the player played it
        // down: the test advanced the clock to those deadlines, never past the end.
        let advances = clock.advances.dropFirst()
        #expect(advances.count >= 3, "\(clock.advances)")
        #expect(advances.allSatisfy { $0 > 100.75 && $0 < 100.75 + 10 }, "\(clock.advances)")
        // The input ended at the clock's last reading; the player played out the rest on its own deadlines.
        #expect(report.sampledDuration == JSONOutput.seconds(clock.now() - 100))
        #expect(report.played == 10)
    }

    @Test("two runs on the virtual clock write the same JSON document, to the byte")
    func deterministic() throws {
        let (first, _) = try Self.check("h264-aac.mp4", settings: Self.settings(), openAt: 0.5)
        let (second, _) = try Self.check("h264-aac.mp4", settings: Self.settings(), openAt: 0.5)
        #expect(try JSONOutput.string(first) == JSONOutput.string(second))
        #expect(first.startupDelay == 0.5)
    }

    /// The first packet's decode time in file order and the latest one, from ffprobe: a file paced at
    /// `--rate Nx` hands each packet over `(dts - first) / N` after the first.
    static func decodeSpan(_ sample: String) throws -> (first: Double, last: Double) {
        let times = try Samples.run("ffprobe", [
            "-v", "error", "-show_entries", "packet=dts_time", "-of", "csv=p=0", BufprobeProcess.sample(sample),
        ]).split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        let first = try #require(times.first)
        return (first, try #require(times.max()))
    }

    @Test("--rate paces a local file on the virtual clock: its input ends when its last packet is due; at 2x it plays through, at 0.5x it stalls and is degraded",
        arguments: [(2.0, CheckVerdict.pass), (0.5, CheckVerdict.degraded)])
    func paced(multiple: Double, verdict: CheckVerdict) throws {
        var settings = Self.settings()
        settings.policy = BufferPolicy(startThreshold: 1, resumeThreshold: 2, forwardTarget: 50)
        settings.rate = .realtime(multiple)
        let (report, clock) = try Self.check("h264-aac.mp4", settings: settings, openAt: 0.5)
        let span = try Self.decodeSpan("h264-aac.mp4")
        #expect(report.verdict == verdict, "\(report.reason)")
        #expect(report.firstPacketTime == 0.5)
        #expect(abs(report.sampledDuration - (0.5 + (span.last - span.first) / multiple)) <= 1e-6,
            "\(report.sampledDuration) for a span of \(span)")
        #expect(report.complete)
        #expect(report.played == 10)
        let startup = try #require(report.startupDelay)
        if multiple >= 1 {
            #expect(report.stallCount == 0)
            // The start threshold (1 s of media) arrives 1 s / 2 after the first packet, give or take the
            // packets that straddle it.
            #expect(abs(startup - (0.5 + 1 / multiple)) <= 0.1, "\(startup)")
        } else {
            #expect(report.stallCount >= 1)
            // A stall ends once the resume threshold (2 s of media) has arrived, which at 0.5x takes 4 s
            // (less a packet's worth already there), or when the input ends: the player then plays out
            // what it has.
            for stall in report.stalls {
                let endedWithInput = abs(stall.start + stall.duration - report.sampledDuration) <= 1e-6
                #expect(endedWithInput || stall.duration >= 2 / multiple - 0.1, "\(report.stalls)")
            }
            #expect(abs(startup - (0.5 + 1 / multiple)) <= 0.2, "\(startup)")
        }
        #expect(clock.advances.count > 10, "the waits for each packet's release were the clock's")
    }

    @Test("a sample limit ends the check at that virtual time, scheduled on the clock")
    func sampleLimit() throws {
        let (report, clock) = try Self.check("h264-aac.mp4", settings: Self.settings(duration: 4), openAt: 0.25)
        #expect(report.verdict == .pass, "\(report.reason)")
        #expect(report.startupDelay == 0.25)
        #expect(!report.complete)
        #expect(report.sampledDuration == 4)
        #expect(clock.now() == 104)
        // Playing from 0.25 s to 4 s without a stall.
        #expect(report.played == 3.75)
    }
}
