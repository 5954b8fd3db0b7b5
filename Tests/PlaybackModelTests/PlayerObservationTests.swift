import PlaybackModel
import Testing

@Suite("Player observation")
struct PlayerObservationTests {
    @Test("the periodic observer fires every 0.5 s of clock time with the media time at that instant")
    func periodicTimes() {
        var player = Player(duration: .finite(10), now: 0)
        player.recordsEvents = true
        _ = player.loaded(TimeRange(start: 0, end: 10), now: 0)
        _ = player.advance(to: 2)
        let ticks = player.takeEvents().filter { $0.kind == .periodic }
        #expect(ticks.map(\.clockTime) == [0.5, 1, 1.5, 2])
        #expect(ticks.map(\.mediaTime) == [0.5, 1, 1.5, 2])
        #expect(player.takeEvents().isEmpty)
    }

    @Test("a stall inside a long advance is observed at its exact clock time")
    func stateChangeTime() {
        var player = Player(duration: .finite(10), timeObserverInterval: nil, now: 0)
        player.recordsEvents = true
        _ = player.loaded(TimeRange(start: 0, end: 1.25), now: 0)
        _ = player.takeEvents()
        _ = player.advance(to: 5)
        let changes = player.takeEvents().filter { if case .stateChanged = $0.kind { true } else { false } }
        #expect(changes.count == 1)
        #expect(changes.first?.clockTime == 1.25)
        #expect(changes.first?.state == .stalled(position: 1.25, since: 1.25))
    }
}
