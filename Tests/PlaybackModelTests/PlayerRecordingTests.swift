import PlaybackModel
import Testing

@Suite("Player.recordsEvents")
struct PlayerRecordingTests {
    /// A player that loads 10 s, plays 5 s and pauses, with the given recording setting.
    func run(recording: Bool) -> (Player, [PlayerAction]) {
        var player = Player(duration: .finite(10), now: 0)
        player.recordsEvents = recording
        var actions = player.advance(to: 0)
        actions += player.loaded(TimeRange(start: 0, end: 10), now: 0.5)
        actions += player.advance(to: 5.5)
        actions += player.pause(now: 5.5)
        return (player, actions)
    }

    @Test("the outbox is off by default")
    func offByDefault() {
        var player = Player(duration: .finite(10), now: 0)
        #expect(!player.recordsEvents)
        _ = player.loaded(TimeRange(start: 0, end: 10), now: 0.5)
        _ = player.advance(to: 3)
        #expect(player.takeEvents().isEmpty)
    }

    @Test("turned off, the outbox stays empty while actions, state and the report are the same")
    func offKeepsBehaviour() {
        var (on, onActions) = run(recording: true)
        var (off, offActions) = run(recording: false)
        #expect(!on.takeEvents().isEmpty)
        #expect(off.takeEvents().isEmpty)
        #expect(offActions == onActions)
        #expect(off.state == on.state)
        #expect(off.report == on.report)
        #expect(off.item.currentTime == 5)
    }
}
