@testable import CheckEngine
import Testing
import InputReading

/// `TruncationRule`: one margin (0.5 s or 2% of the declared duration) on one basis (the declared span),
/// for probe's truncation warning and check's early end alike.
@Suite("TruncationRule: the declared span against the received end")
struct TruncationRuleTests {
    @Test(
        "more than max(0.5 s, 2% of the declared duration) short is truncated, as much past is an overrun",
        arguments: [
            // (declared start, declared duration, received end, outcome)
            (0.0, 10.0, 9.6, TruncationRule.Outcome.whole),
            (0.0, 10.0, 9.4, .truncated(missing: 10 - 9.4)),
            (0.0, 10.0, 10.4, .whole),
            (0.0, 10.0, 10.6, .overrun(by: 10.6 - 10)),
            // 2% of 100 s is 2 s: 1.5 s short is rounding, 2.5 s is not.
            (0.0, 100.0, 98.5, .whole),
            (0.0, 100.0, 97.5, .truncated(missing: 100 - 97.5)),
            // An MPEG-TS start: the end moves with the start, the margin does not.
            (1.4, 100.0, 99.9, .whole),
            (1.4, 100.0, 98.9, .truncated(missing: 1.4 + 100 - 98.9)),
        ])
    func judge(start: Double, duration: Double, receivedEnd: Double, outcome: TruncationRule.Outcome) {
        #expect(TruncationRule.judge(.init(start: start, duration: duration), receivedEnd: receivedEnd) == outcome)
    }

    @Test("the basis is the declared duration whatever the time base: media time and from the playable start agree")
    func sameBasisInEveryTimeBase() {
        // Probe judges in media time; check shifts the end back by the playable start (here 1.4 s). The
        // received ends stay clear of the margins (0.6 s either side) so rounding cannot decide.
        let media = TruncationRule.Declared(start: 1.4, duration: 30)
        let presented = TruncationRule.Declared(end: media.end - 1.4, duration: media.duration)
        for received in stride(from: 27.1, through: 33.1, by: 0.25) {
            let inMedia = TruncationRule.judge(media, receivedEnd: received)
            let fromStart = TruncationRule.judge(presented, receivedEnd: received - 1.4)
            switch (inMedia, fromStart) {
            case (.whole, .whole), (.truncated, .truncated), (.overrun, .overrun): break
            default: Issue.record("\(received): \(inMedia) in media time, \(fromStart) from the playable start")
            }
        }
        #expect(abs(TruncationRule.margin(forDuration: 50) - 1) < 1e-12)
        #expect(TruncationRule.margin(forDuration: 10) == 0.5)
    }
}
