import PlaybackModel

extension CheckMachine {
    /// The state to draw at `now` (seconds since the check began): the player advanced to `now` on a copy,
    /// so drawing changes nothing the check measures.
    package func progress(at now: Double) -> CheckProgress {
        var machine = self
        machine.events = nil
        machine.recording = nil
        if !machine.isFinished { _ = machine.advance(to: now) }
        guard let session = machine.session else { return CheckProgress(source: source, elapsed: now) }
        let player = session.player
        let receiving = counters.lastPacketTime ?? now
        let span = receiving - (counters.firstPacketTime ?? receiving)
        var progress = CheckProgress(
            source: source, elapsed: now, state: player.state, currentTime: session.presentationTime(player.item.currentTime),
            bufferedAhead: player.item.bufferedAhead,
            stallPositions: player.report.stalls.map { session.presentationTime($0.position) },
            received: session.presentedReceived, duration: session.presentationDuration,
            throughput: receiving > 0 ? Double(counters.bytes) * 8 / receiving : nil,
            realtimeFactor: !live.isOnClock && span > 0 ? counters.mediaReceived / span : nil)
        progress.gapPositions = session.skippedGaps.map { session.presentationTime($0.start) }
        if counters.firstPacketTime != nil, let view = live.view(at: now, playhead: player.item.currentTime) {
            progress.live = CheckProgress.Live(
                latency: view.latency, windowStart: view.windowStart.map(session.presentationTime),
                edge: session.presentationTime(view.edge))
        }
        return progress
    }

    /// The state to draw at `now` for an observer that wants one every `interval` seconds, and when its
    /// next is due on the check's clock: `interval` after this one, or `nil` once the check is over (this
    /// snapshot, the ended state, is its last). The driver schedules it and hands it over (`CheckSession`
    /// `observeProgress`): the live line and `StreamCheck.progress(every:)` are pushed, not polled.
    package func progressDue(at now: Double, every interval: Double) -> (progress: CheckProgress, next: Double?) {
        (progress(at: now), closed ? nil : now + max(interval, Self.shortestProgressInterval))
    }

    /// The shortest pace of progress snapshots, seconds: a zero or negative interval asked for is this.
    package static let shortestProgressInterval = 0.001
}
