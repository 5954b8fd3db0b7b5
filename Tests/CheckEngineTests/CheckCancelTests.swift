@testable import CheckEngine
import Foundation
import MediaIO
import Testing
import TestSupport

/// A cancel ends every wait of a check at once: every wait goes through the check's clock (`CheckClock`)
/// with the check's alarm, so a live check on a clock that stands still returns as soon as it is cancelled.
@Suite("a cancel ends every wait of a check", .ffmpegLog)
struct CheckCancelTests {
    @Test("a live LL-HLS check cancelled while its client waits for a part not yet listed returns within 100 ms of virtual time, no thread left asleep on the clock and the client's thread ended")
    func cancelEndsEveryLowLatencyWait() throws {
        // The twin that answers a blocking reload at once without the part asked for: the client then waits
        // half a part target on the check's clock before it asks again; the clock stands still, so that wait
        // lasts until something ends it.
        let origin = try FixtureServer(
            script: "llhls_origin.py",
            arguments: [
                "--sample", BufprobeProcess.sample("h264-aac.mp4"), "--seconds", "24", "--cache", TestCache.folder.path,
                "--fault", "ignore-blocking",
            ])
        let clock = ManualClock(at: 100)
        var settings = CheckSettings()
        settings.duration = 8
        let session = CheckSession(source: "http://127.0.0.1:\(origin.port)/live.m3u8", settings: settings, clock: clock)
        let running = BlockingThread.start(name: "check under test") { session.run() }
        let clientWaits = eventually { clock.sleeping.contains("bufprobe LL-HLS") }
        #expect(clientWaits, "the LL-HLS client never waited on the check's clock (asleep: \(clock.sleeping))")
        let cancelledAt = clock.now()
        session.cancel()
        // A wait the cancel did not end would be driven to its deadline here, moving the clock.
        let report = clock.drive(patience: 30) { running.join() }
        let ended = try #require(report, "the check did not return after the cancel (asleep: \(clock.sleeping))")
        #expect(clock.now() - cancelledAt <= 0.1, "the check returned at \(clock.now() - cancelledAt) s of virtual time after the cancel")
        #expect(clock.sleeping.isEmpty, "still asleep on the clock: \(clock.sleeping)")
        #expect(ended.interrupted == true)
        #expect(ended.lowLatency != nil, "the parts were played by bufprobe's LL-HLS client")
    }
}
