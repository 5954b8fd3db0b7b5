package import ProgressLine

extension CheckProgress {
    /// The live line's frame: indeterminate while connecting, then the player's state word, the played
    /// part, every received range (holes stay visible) and a marker at each stall and each jumped hole.
    /// Its times count from the playable start already, so a stream whose timestamps start at 1.4 s
    /// (MPEG-TS) still fills the bar from its left end.
    package var snapshot: ProgressSnapshot {
        guard let state else {
            return ProgressSnapshot(state: .loading, title: source, isIndeterminate: true)
        }
        return ProgressSnapshot(
            state: PlaybackStateWord(state), title: source, currentTime: max(0, currentTime), duration: duration,
            loaded: received.ranges.filter { $0.end > $0.start }.map { $0.start..<$0.end },
            bufferedAhead: bufferedAhead, throughputBitsPerSecond: throughput, realtimeFactor: realtimeFactor,
            markers: stallPositions.map { ProgressMarker(.stall, at: $0) } + gapPositions.map { ProgressMarker(.gap, at: $0) })
    }
}
