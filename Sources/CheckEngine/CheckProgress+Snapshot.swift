package import ProgressLine

extension CheckProgress {
    /// The live line's frame: indeterminate while connecting, then the player's state word, the played
    /// part, every received range (holes stay visible) and a marker at each stall and each jumped hole.
    /// Its times count from the playable start already, so a stream whose timestamps start at 1.4 s
    /// (MPEG-TS) still fills the bar from its left end. A live stream whose media is on the clock draws the
    /// live bar (`LiveEdge`).
    package var snapshot: ProgressSnapshot {
        guard let state else {
            return ProgressSnapshot(state: .loading, title: source, isIndeterminate: true)
        }
        var snapshot = ProgressSnapshot(
            state: PlaybackStateWord(state), title: source, currentTime: max(0, currentTime), duration: duration,
            loaded: received.ranges.filter { $0.end > $0.start }.map { $0.start..<$0.end },
            bufferedAhead: bufferedAhead, throughputBitsPerSecond: throughput, realtimeFactor: realtimeFactor,
            markers: stallPositions.map { ProgressMarker(.stall, at: $0) } + gapPositions.map { ProgressMarker(.gap, at: $0) })
        // Live with its media on the clock: the time-shift window up to the edge, and the latency.
        snapshot.live = live.map { LiveEdge(windowStart: $0.windowStart, edge: $0.edge, latency: $0.latency) }
        return snapshot
    }
}
