import PlaybackModel
import PropertyBased
import Testing

/// Random event sequences from fixed seeds, checked against the player's invariants after every event.
@Suite("Player properties")
struct PlayerPropertyTests {
    static let seeds: [UInt64] = [1, 2, 3, 4, 5, 6, 7, 8]

    @Test(
        "random event sequences keep progress in 0...1, the playhead within loaded data, and time adding up",
        arguments: seeds)
    func randomEventSequences(seed: UInt64) {
        var rng = Xoshiro(seed: (seed, 0x9E37_79B9, seed &* 31, 17))
        var statesSeen: Set<String> = []
        for _ in 0..<150 {
            runSequence(&rng, statesSeen: &statesSeen)
        }
        // The sequences must actually reach every state, or the invariants were checked on too little.
        #expect(statesSeen == ["loading", "playing", "paused", "stalled", "seeking", "ended", "failed"])
    }

    private func runSequence(_ rng: inout Xoshiro, statesSeen: inout Set<String>) {
        let durations: [MediaDuration] = [.finite(Double.random(in: 1...120, using: &rng)), .finite(0), .unknown, .unbounded]
        let duration = durations[Int.random(in: 0..<durations.count, using: &rng) == 0 ? 0 : Int.random(in: 0..<4, using: &rng)]
        let policies = [BufferPolicy.default, .constrained, BufferPolicy(backBuffer: 5), BufferPolicy(startThreshold: 0.5, resumeThreshold: 3, forwardTarget: 8, backBuffer: .infinity)]
        let policy = policies[Int.random(in: 0..<policies.count, using: &rng)]
        let start = Double.random(in: 0...5, using: &rng)
        var player = Player(
            duration: duration, policy: policy, timeObserverInterval: 0.5, now: start)
        var now = start
        for _ in 0..<Int.random(in: 1...80, using: &rng) {
            let before = player
            var actions: [PlayerAction]
            var isAdvance = false
            switch Int.random(in: 0..<20, using: &rng) {
            case 0..<7:
                now += Double.random(in: 0...4, using: &rng)
                if Bool.random(using: &rng), let deadline = player.nextDeadline { now = Swift.max(now, deadline) }
                actions = player.advance(to: now)
                isAdvance = true
            case 7..<13:
                now += Double.random(in: 0...1, using: &rng)
                let base = Bool.random(using: &rng) ? player.item.currentTime : Double.random(in: -5...130, using: &rng)
                let s = base + Double.random(in: -1...3, using: &rng)
                actions = player.loaded(TimeRange(start: s, end: s + Double.random(in: 0...6, using: &rng)), now: now)
            case 13: actions = player.play(now: now)
            case 14: actions = player.pause(now: now)
            case 15: actions = player.seek(to: Double.random(in: -5...130, using: &rng), now: now)
            case 16: actions = player.setRate([0, 0.5, 1, 2][Int.random(in: 0..<4, using: &rng)], now: now)
            case 17: actions = Int.random(in: 0..<3, using: &rng) == 0 ? player.endOfStream(now: now) : player.advance(to: now)
            case 18: actions = Int.random(in: 0..<8, using: &rng) == 0 ? player.failed("boom", now: now) : player.play(now: now)
            default:
                now += Double.random(in: 0...0.3, using: &rng)
                actions = player.advance(to: now)
                isAdvance = true
            }
            check(player, before: before, actions: actions, isAdvance: isAdvance, elapsed: now - start)
            statesSeen.insert(player.state.name)
            _ = player.takeEvents()
        }
    }

    private func check(_ player: Player, before: Player, actions: [PlayerAction], isAdvance: Bool, elapsed: Double) {
        let item = player.item
        #expect((0...1).contains(item.progress))
        #expect((0...1).contains(item.bufferedFraction))
        #expect(item.bufferedFraction >= item.progress)
        if let end = item.mediaEnd { #expect(item.currentTime <= end) }
        if case .playing = player.state { #expect(item.bufferedAhead > 0) }
        if case .stalled = player.state { #expect(!item.isPlaybackLikelyToKeepUp) }

        // While playing, an advance moves the playhead at most to the end of the data it was in.
        if isAdvance, !actions.contains(where: { if case .skippedGap = $0 { true } else { false } }) {
            if case .playing = before.state {
                let old = before.item
                let dataEnd = old.loadedTimeRanges.range(containing: old.currentTime)?.end ?? old.currentTime
                #expect(item.currentTime <= Swift.min(dataEnd, old.mediaEnd ?? .infinity))
                #expect(item.currentTime >= old.currentTime)
            } else if !before.state.isTerminal {
                #expect(item.currentTime == before.item.currentTime || before.item.isEndOfStream)
            }
        }

        let report = player.report
        let accounted =
            report.startupDelay + report.stallTime + report.seekWaitTime + report.playedWallTime
            + report.pausedTime + report.idleTime
        #expect(abs(report.elapsed - Swift.max(0, elapsed)) <= 1e-9 * Swift.max(1, elapsed))
        #expect(abs(accounted - report.elapsed) <= 1e-9 * Swift.max(1, report.elapsed))
        #expect(abs(report.stalls.reduce(0) { $0 + $1.duration } - report.stallTime) <= 1e-9 * Swift.max(1, elapsed))
        #expect(abs(report.seeks.reduce(0) { $0 + $1.latency } - report.seekWaitTime) <= 1e-9 * Swift.max(1, elapsed))
        #expect(report.played <= report.playedWallTime * 2 + 1e-9)
        if !report.started { #expect(report.stalls.isEmpty) }
        #expect(report.started ? report.rebufferRatio.map { (0...1).contains($0) } == true : report.rebufferRatio == nil)
    }
}
