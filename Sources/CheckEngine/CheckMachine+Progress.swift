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
}
