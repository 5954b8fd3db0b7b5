@testable import MediaIO
import Testing
import TestSupport

/// MediaIO's waits and deadlines on the injected clock (`IOClock`), moved by hand (`ManualClock`): the
/// interrupter's `--timeout` and request pace, the resource gate's loop rule, and the alarm that ends
/// every wait at once.
@Suite("MediaIO's waits and deadlines follow the injected clock")
struct ClockedWaitsTests {
    @Test("an armed call times out once the interrupter's clock is past --timeout after its first poll, and not before; a child keeps its parent's clock")
    func timeoutFollowsTheClock() {
        let clock = ManualClock(at: 10)
        let interrupter = Interrupter(timeout: .seconds(5), clock: clock)
        interrupter.arm()
        // The first poll starts the call's clock: the deadline is 15.
        #expect(!interrupter.shouldAbort())
        clock.advance(to: 15)
        #expect(!interrupter.shouldAbort())
        #expect(interrupter.reason == nil)
        clock.advance(to: 15.001)
        #expect(interrupter.shouldAbort())
        #expect(interrupter.reason == .timeout)

        let child = Interrupter(timeout: .seconds(1), parent: Interrupter(timeout: nil, clock: clock))
        child.arm()
        #expect(!child.shouldAbort())
        clock.advance(to: 16.002)
        #expect(child.shouldAbort())
        #expect(child.reason == .timeout)
    }

    @Test("past the burst, a request waits 1/requestsPerSecond on the interrupter's clock, each origin on its own tokens; a cancel ends the wait at once")
    func paceFollowsTheClock() {
        let clock = ManualClock(at: 0)
        let interrupter = Interrupter(timeout: nil, clock: clock)
        for _ in 0..<Int(ResourceLimits.requestBurst) { #expect(interrupter.pace("http://a.test/x")) }
        #expect(clock.advances.isEmpty, "the burst waits for nothing")
        let paced = clock.drive { interrupter.pace("http://a.test/y") }
        #expect(paced == true)
        #expect(clock.advances == [1 / ResourceLimits.requestsPerSecond])
        #expect(interrupter.pace("http://b.test/"), "another origin has a burst of its own")

        let waiting = BlockingThread.start(name: "paced request") { interrupter.pace("http://a.test/z") }
        #expect(eventually { clock.sleeping == ["paced request"] }, "asleep: \(clock.sleeping)")
        interrupter.cancel()
        #expect(waiting.join() == false)
        #expect(clock.sleeping.isEmpty)
        #expect(clock.now() == 1 / ResourceLimits.requestsPerSecond, "the cancel, not the clock, ended the wait")
    }

    @Test("an alarm ends every wait on it or below it at once, on every thread, and every wait after it before it starts")
    func alarmEndsEveryWait() {
        let clock = ManualClock(at: 0)
        let root = Alarm()
        let child = Alarm(parent: root)
        let sleepers = (0..<3).map { index in
            BlockingThread.start(name: "sleeper \(index)") { clock.sleep(until: 60, alarm: index == 0 ? root : child) }
        }
        #expect(eventually { clock.sleeping.count == 3 })
        root.raise()
        for sleeper in sleepers { sleeper.join() }
        #expect(clock.sleeping.isEmpty)
        #expect(clock.now() == 0)
        #expect(child.isRaised)
        // Raised already: a later wait does not start.
        clock.sleep(until: 60, alarm: Alarm(parent: child))
        #expect(clock.now() == 0)
    }

    @Test("four requests of a URL within one second on the given clock are a loop, the same four spread over more than a second are not, and each URL counts its own")
    func loopRuleFollowsTheGivenTimes() {
        var watch = RequestLoopWatch()
        var loops: [Bool] = []
        for time in [0.0, 0.3, 0.6, 0.9] { loops.append(watch.record("http://a.test/self.m3u8", at: time)) }
        #expect(loops == [false, false, false, true])
        let other = watch.record("http://a.test/other.m3u8", at: 0.95)
        #expect(!other)
        var spread = RequestLoopWatch()
        var spreadLoops: [Bool] = []
        for time in [0.0, 0.5, 1.0, 1.5, 2.0, 2.5] { spreadLoops.append(spread.record("http://a.test/self.m3u8", at: time)) }
        #expect(!spreadLoops.contains(true))
        #expect(ResourceLimits.loopRequests == 4)
    }
}
