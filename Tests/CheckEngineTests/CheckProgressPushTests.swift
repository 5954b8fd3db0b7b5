@testable import CheckEngine
import Logging
import Synchronization
import Testing
import TestSupport

/// Progress is pushed to observers on the check's clock when the machine says a snapshot is due, not
/// polled: the live line (`check`) and `StreamCheck.progress(every:)` are such observers.
@Suite("Progress pushed on the check's clock", .ffmpegLog)
struct CheckProgressPushTests {
    @Test("the machine says the next snapshot is due one interval after this one, and none once the check is closed")
    func due() {
        var machine = CheckMachine(source: "/nonexistent/clip.mp4", settings: CheckSettings())
        let open = machine.progressDue(at: 2, every: 0.5)
        #expect(open.progress.elapsed == 2)
        #expect(open.next == 2.5)
        machine.handle(.closed(refused: nil, interrupted: false), at: 3)
        let closed = machine.progressDue(at: 3, every: 0.5)
        #expect(closed.progress.elapsed == 3)
        #expect(closed.next == nil)
    }

    @Test("an observer gets the state at once, then once per interval of the check's clock, and the ended state last")
    func pushed() {
        // Installs bufprobe's FFmpeg log sink (the router the session registers with).
        _ = CheckRunner(logger: Logger(label: "test"))
        let clock = ManualClock(at: 0)
        let session = CheckSession(source: "/nonexistent/clip.mp4", settings: CheckSettings(), clock: clock)
        let seen = Mutex<[Double]>([])
        session.observeProgress(every: 0.25) { progress in seen.withLock { $0.append(progress.elapsed) } }
        // 0.6 is no snapshot's time: nothing is pushed between the due times.
        for time in [0.25, 0.5, 0.6, 0.75] { clock.advance(to: time) }
        #expect(seen.withLock { $0 } == [0, 0.25, 0.5, 0.75])
        // The check fails at once (no such file) and closes: the snapshot already due is the last.
        _ = session.run()
        clock.advance(to: 1)
        clock.advance(to: 2)
        #expect(seen.withLock { $0 } == [0, 0.25, 0.5, 0.75, 1])
    }
}
