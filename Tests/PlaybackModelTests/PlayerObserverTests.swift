import PlaybackModel
import Synchronization
import Testing

@Suite("Player observation")
struct PlayerObserverTests {
    @Test("the periodic observer fires every 0.5 s of clock time with the media time at that instant")
    func periodicTimes() {
        var player = Player(duration: .finite(10), now: 0)
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
        _ = player.loaded(TimeRange(start: 0, end: 1.25), now: 0)
        _ = player.takeEvents()
        _ = player.advance(to: 5)
        let changes = player.takeEvents().filter { if case .stateChanged = $0.kind { true } else { false } }
        #expect(changes.count == 1)
        #expect(changes.first?.clockTime == 1.25)
        #expect(changes.first?.state == .stalled(position: 1.25, since: 1.25))
    }

    @Test("events reach both callbacks and the AsyncStream, in order")
    func delivery() async {
        let observer = PlayerObserver()
        let seen = Mutex<[Double]>([])
        let states = Mutex<[String]>([])
        observer.onPeriodicTime { media, _ in seen.withLock { $0.append(media) } }
        observer.onStateChange { _, event in states.withLock { $0.append(event.state.name) } }
        var player = Player(duration: .finite(2), now: 0)
        _ = player.loaded(TimeRange(start: 0, end: 2), now: 0)
        _ = player.advance(to: 3)
        observer.deliver(from: &player)
        observer.finish()
        #expect(seen.withLock { $0 } == [0.5, 1, 1.5])  // the tick at 2 s falls on the end: none once ended
        #expect(states.withLock { $0 } == ["playing", "ended"])
        var streamed: [PlayerEvent] = []
        for await event in observer.events { streamed.append(event) }
        #expect(streamed.count > 4)
        #expect(streamed.map(\.clockTime) == streamed.map(\.clockTime).sorted())
    }
}
