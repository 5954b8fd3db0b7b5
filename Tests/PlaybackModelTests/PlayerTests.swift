import PlaybackModel
import Testing

/// A player for 10 s of media created at clock 0 whose first `startLoading` has been taken.
private func makePlayer(
    duration: MediaDuration = .finite(10), policy: BufferPolicy = .default, autoplay: Bool = true
) -> Player {
    var player = Player(duration: duration, policy: policy, autoplay: autoplay, timeObserverInterval: nil, now: 0)
    _ = player.advance(to: 0)
    return player
}

private func range(_ start: Double, _ end: Double) -> TimeRange { TimeRange(start: start, end: end) }

@Suite("Player transitions")
struct PlayerTests {
    @Test("the first advance asks for loading from the start position")
    func firstAdvanceStartsLoading() {
        var player = Player(duration: .finite(10), now: 0)
        #expect(player.advance(to: 0) == [.startLoading(from: 0)])
        #expect(player.state == .loading(since: 0))
    }

    @Test("initial loading lasts until the start threshold is buffered and counts as startup delay, not a stall")
    func startupDelay() {
        var player = makePlayer()
        #expect(player.loaded(range(0, 0.5), now: 0.25).isEmpty)
        #expect(player.loaded(range(0.5, 1), now: 0.75) == [.started(startupDelay: 0.75)])
        #expect(player.state == .playing(since: 0.75))
        #expect(player.report.startupDelay == 0.75)
        #expect(player.report.stallCount == 0)
    }

    @Test("the playhead stops exactly at the end of loaded data, and that is a stall at that clock time")
    func stallAtEndOfData() {
        var player = makePlayer()
        _ = player.loaded(range(0, 3), now: 0)
        let actions = player.advance(to: 10)
        #expect(actions == [.stallBegan(position: 3)])
        #expect(player.item.currentTime == 3)
        #expect(player.state == .stalled(position: 3, since: 3))
        #expect(player.report.stalls == [QoEReport.Stall(position: 3, start: 3, duration: 7)])
    }

    @Test("a stall ends only at the resume threshold, not the start threshold")
    func resumeThreshold() {
        var player = makePlayer()
        _ = player.loaded(range(0, 3), now: 0)
        _ = player.advance(to: 4)
        #expect(player.loaded(range(3, 4.5), now: 5).isEmpty)
        #expect(player.state == .stalled(position: 3, since: 3))
        #expect(player.loaded(range(4.5, 5), now: 6) == [.stallEnded(position: 3, duration: 3)])
        #expect(player.state == .playing(since: 6))
        #expect(player.report.stallTime == 3)
    }

    @Test("the playhead never passes the duration even when more is loaded")
    func neverPassesDuration() {
        var player = makePlayer()
        _ = player.loaded(range(0, 20), now: 0)
        let actions = player.advance(to: 30)
        #expect(actions.contains(.ended(position: 10)))
        #expect(player.item.currentTime == 10)
        #expect(player.state == .ended(since: 10))
        #expect(player.item.progress == 1)
        #expect(player.report.ended)
    }

    @Test("a hole longer than maxGapJump ahead of the playhead stops playback at the hole")
    func gapAhead() {
        var player = makePlayer()
        _ = player.loaded(range(0, 3), now: 0)
        _ = player.loaded(range(3 + Player.maxGapJump + 0.5, 10), now: 0)
        #expect(player.advance(to: 5) == [.stallBegan(position: 3)])
        #expect(player.item.currentTime == 3)
    }

    @Test("a small hole with data after it is jumped as soon as the playhead reaches it, without a stall")
    func smallGapJumped() {
        var player = makePlayer()
        _ = player.loaded(range(0, 3), now: 0)
        _ = player.loaded(range(4, 10), now: 0)
        let actions = player.advance(to: 5)
        #expect(actions.first == .skippedGap(range(3, 4)))
        #expect(player.state == .playing(since: 0))
        #expect(player.item.currentTime == 6)
        #expect(player.report.stallCount == 0)
    }

    @Test("a stall at a small hole ends by jumping it once the data after it reaches the resume threshold")
    func stallAtGapEndsByJumping() {
        var player = makePlayer()
        _ = player.loaded(range(0, 3), now: 0)
        _ = player.advance(to: 4)
        #expect(player.state == .stalled(position: 3, since: 3))
        _ = player.loaded(range(4, 5), now: 4)
        #expect(player.state == .stalled(position: 3, since: 3))
        let actions = player.loaded(range(5, 6.5), now: 5)
        #expect(actions.contains(.skippedGap(range(3, 4))))
        #expect(player.state == .playing(since: 5))
        #expect(player.item.currentTime == 4)
        #expect(player.report.stalls.first?.duration == 2)
    }

    @Test("a seek inside a loaded range completes at once and keeps the data")
    func seekInside() {
        var player = makePlayer(policy: BufferPolicy(backBuffer: .infinity))
        _ = player.loaded(range(0, 10), now: 0)
        _ = player.advance(to: 1)
        let actions = player.seek(to: 6, now: 1)
        #expect(actions == [.seekStarted(from: 1, to: 6), .seekCompleted(from: 1, to: 6, latency: 0)])
        #expect(player.state == .playing(since: 0))
        #expect(player.item.loadedTimeRanges.ranges == [range(0, 10)])
        #expect(player.report.seeks == [QoEReport.Seek(from: 1, to: 6, start: 1, latency: 0)])
    }

    @Test("a seek outside the loaded ranges waits as seeking: seek latency, not a stall")
    func seekOutside() {
        var player = makePlayer(duration: .finite(100))
        _ = player.loaded(range(0, 10), now: 0)
        let actions = player.seek(to: 50, now: 2)
        #expect(actions == [.startLoading(from: 50), .seekStarted(from: 2, to: 50)])
        #expect(player.state == .seeking(from: 2, to: 50, since: 2))
        #expect(player.loaded(range(50, 51), now: 3) == [.seekCompleted(from: 2, to: 50, latency: 1)])
        #expect(player.state == .playing(since: 3))
        #expect(player.report.stallCount == 0)
        #expect(player.report.seekWaitTime == 1)
    }

    @Test("a seek while stalled ends the stall and waits as seeking")
    func seekWhileStalled() {
        var player = makePlayer(duration: .finite(100))
        _ = player.loaded(range(0, 3), now: 0)
        _ = player.advance(to: 5)
        let actions = player.seek(to: 50, now: 5)
        #expect(actions.first == .stallEnded(position: 3, duration: 2))
        #expect(actions.contains(.seekStarted(from: 3, to: 50)))
        #expect(player.state == .seeking(from: 3, to: 50, since: 5))
        #expect(player.report.stallTime == 2)
    }

    @Test("a pause during initial loading is paused time, and loading resumes counting startup on play")
    func pauseWhileLoading() {
        var player = makePlayer()
        _ = player.advance(to: 1)
        _ = player.pause(now: 1)
        #expect(player.state == .paused(since: 1))
        _ = player.loaded(range(0, 5), now: 2)
        #expect(player.state == .paused(since: 1))
        #expect(player.play(now: 4) == [.started(startupDelay: 1)])
        #expect(player.report.pausedTime == 3)
        #expect(player.report.startupDelay == 1)
    }

    @Test("data arriving behind the playhead changes nothing ahead and is evicted without a back buffer")
    func dataBehindPlayhead() {
        var player = makePlayer()
        _ = player.seek(to: 5, now: 0)
        _ = player.loaded(range(5, 10), now: 0)
        _ = player.advance(to: 1)
        let before = player.item.bufferedAhead
        #expect(player.loaded(range(0, 4), now: 1).isEmpty)
        #expect(player.item.bufferedAhead == before)
        #expect(player.item.loadedTimeRanges.start == player.item.currentTime)
    }

    @Test("a back buffer keeps that much data behind the playhead")
    func backBufferKept() {
        var player = makePlayer(policy: BufferPolicy(backBuffer: 2))
        _ = player.loaded(range(0, 10), now: 0)
        _ = player.advance(to: 5)
        #expect(player.item.loadedTimeRanges.ranges == [range(3, 10)])
    }

    @Test("end of stream while stalled at the last data ends playback there")
    func endOfStreamWhileStalled() {
        var player = makePlayer(duration: .unknown)
        _ = player.loaded(range(0, 3), now: 0)
        _ = player.advance(to: 4)
        #expect(
            player.endOfStream(now: 4) == [.stallEnded(position: 3, duration: 1), .ended(position: 3), .stopLoading])
        #expect(player.state == .ended(since: 4))
    }

    @Test("after end of stream a hole that can never fill is skipped")
    func endOfStreamSkipsGap() {
        var player = makePlayer()
        _ = player.loaded(range(0, 3), now: 0)
        _ = player.loaded(range(9, 10), now: 0)
        _ = player.advance(to: 3)
        let actions = player.endOfStream(now: 3)
        #expect(actions.contains(.skippedGap(range(3, 9))))
        #expect(player.state == .playing(since: 3))
        #expect(player.item.currentTime == 9)
    }

    @Test("zero-duration media ends at once and never asks for data")
    func zeroDuration() {
        var player = Player(duration: .finite(0), timeObserverInterval: nil, now: 0)
        #expect(player.advance(to: 0) == [.ended(position: 0)])
        #expect(player.item.progress == 0)
        #expect(player.play(now: 1).isEmpty)
    }

    @Test("live (unbounded) media never ends by itself, stalls at the live edge and shows no progress")
    func liveMedia() {
        var player = makePlayer(duration: .unbounded)
        _ = player.loaded(range(0, 1000), now: 0)
        _ = player.advance(to: 1000)
        #expect(player.state == .stalled(position: 1000, since: 1000))
        #expect(player.item.progress == 0)
        #expect(player.item.bufferedFraction == 0)
        #expect(player.nextDeadline == nil)
    }

    @Test("loading stops above the forward target and restarts when playback brings it back down")
    func loadingControl() {
        var player = makePlayer(duration: .finite(100))
        #expect(player.loaded(range(0, 60), now: 0) == [.started(startupDelay: 0), .stopLoading])
        #expect(!player.wantsMoreData)
        #expect(player.nextDeadline == 10)
        #expect(player.advance(to: 10) == [.startLoading(from: 60)])
        #expect(player.item.bufferedAhead == 50)
    }

    @Test("nextDeadline is when the playhead reaches the end of loaded data, and advancing to it stalls exactly")
    func nextDeadlineStall() {
        var player = makePlayer()
        _ = player.loaded(range(0, 4), now: 1)
        #expect(player.nextDeadline == 5)
        #expect(player.advance(to: 5) == [.stallBegan(position: 4)])
        #expect(player.nextDeadline == nil)
    }

    @Test("the rate scales playhead movement and the deadline")
    func rate() {
        var player = makePlayer()
        _ = player.loaded(range(0, 4), now: 0)
        _ = player.setRate(2, now: 0)
        #expect(player.nextDeadline == 2)
        _ = player.advance(to: 1)
        #expect(player.item.currentTime == 2)
        #expect(player.report.played == 2)
        #expect(player.report.playedWallTime == 1)
    }

    @Test("rate 0 pauses and a positive rate plays again")
    func rateZeroPauses() {
        var player = makePlayer()
        _ = player.loaded(range(0, 4), now: 0)
        _ = player.setRate(0, now: 1)
        #expect(player.state == .paused(since: 1))
        _ = player.setRate(1, now: 2)
        #expect(player.state == .playing(since: 2))
        #expect(player.setRate(-1, now: 2).isEmpty)
    }

    @Test("resuming from pause with nothing buffered is a stall")
    func resumeEmptyIsStall() {
        var player = makePlayer(duration: .finite(100))
        _ = player.loaded(range(0, 2), now: 0)
        _ = player.advance(to: 2)
        _ = player.pause(now: 3)
        #expect(player.report.stalls == [QoEReport.Stall(position: 2, start: 2, duration: 1)])
        #expect(player.play(now: 4) == [.stallBegan(position: 2)])
    }

    @Test("failure ends a stall and no later event moves the player")
    func failure() {
        var player = makePlayer()
        _ = player.loaded(range(0, 1), now: 0)
        _ = player.advance(to: 2)
        #expect(
            player.failed("connection reset", now: 3) == [
                .stallEnded(position: 1, duration: 2), .failed(reason: "connection reset"), .stopLoading,
            ])
        #expect(player.loaded(range(1, 10), now: 4).isEmpty)
        #expect(player.seek(to: 5, now: 4).isEmpty)
        #expect(player.state == .failed(reason: "connection reset", since: 3))
        #expect(player.report.failure == "connection reset")
    }

    @Test("a first packet just after the start position does not block startup")
    func firstPacketAfterStart() {
        var player = makePlayer()
        _ = player.loaded(range(0.02, 2), now: 0)
        #expect(player.state == .playing(since: 0))
        #expect(player.item.currentTime == 0.02)
    }

    @Test("predictive keep-up starts before the threshold when the network is fast enough to the end")
    func predictiveKeepUp() {
        var player = makePlayer(policy: BufferPolicy(startThreshold: 5, resumeThreshold: 5, keepUp: .predictive(horizon: nil)))
        _ = player.loaded(range(0, 1), now: 0)
        #expect(player.state == .loading(since: 0))
        _ = player.updateNetwork(NetworkEstimate(bytesPerSecond: 1000, remainingBytes: 1000), now: 0)
        #expect(player.state == .playing(since: 0))
        var slow = makePlayer(policy: BufferPolicy(startThreshold: 5, resumeThreshold: 5, keepUp: .predictive(horizon: nil)))
        _ = slow.loaded(range(0, 1), now: 0)
        _ = slow.updateNetwork(NetworkEstimate(bytesPerSecond: 1000, remainingBytes: 100_000), now: 0)
        #expect(slow.state == .loading(since: 0))
    }
}
