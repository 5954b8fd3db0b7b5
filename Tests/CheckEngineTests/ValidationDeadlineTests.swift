@testable import CheckEngine
import MediaIO
import Testing
import TestSupport

/// `--all-variants`' deadlines (`VariantProber.RequestDeadline`, `ValidationBudget`) fire on the check's
/// clock: in a test, in virtual time.
@Suite("--all-variants' deadlines follow the check's clock")
struct ValidationDeadlineTests {
    @Test("a request's deadline cancels its interrupter once the clock reaches it, not before; a finished request is not cut")
    func requestDeadlineFiresInVirtualTime() {
        let clock = ManualClock(at: 50)
        let deadline = VariantProber.RequestDeadline(Interrupter(timeout: nil, clock: clock), seconds: 3)
        clock.advance(to: 52.9)
        #expect(deadline.interrupter.reason == nil)
        clock.advance(to: 53)
        #expect(deadline.interrupter.reason == .cancelled)
        #expect(deadline.finish(), "the deadline, not the request, ended it")

        let finished = VariantProber.RequestDeadline(Interrupter(timeout: nil, clock: clock), seconds: 1)
        #expect(!finished.finish())
        clock.advance(to: 60)
        #expect(finished.interrupter.reason == nil)
    }

    @Test("a request within a budget is cut at what is left of the budget when that comes before --timeout, on the budget's clock")
    func budgetCutsRequestsInVirtualTime() {
        let clock = ManualClock(at: 0)
        let root = Interrupter(timeout: nil, clock: clock)
        let budget = ValidationBudget(seconds: 5, clock: clock)
        clock.advance(to: 2)
        #expect(budget.remaining == 3)
        let request = budget.request(for: "http://127.0.0.1:1/master.m3u8", timeout: 10, root: root, pacer: root)
        clock.advance(to: 4.9)
        #expect(request.interrupter.reason == nil)
        #expect(!budget.isSpent)
        clock.advance(to: 5)
        #expect(request.interrupter.reason == .cancelled)
        #expect(budget.isSpent)
    }
}
