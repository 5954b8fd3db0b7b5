package import ProgressLine

extension CheckProgress {
    /// The live line's frame: indeterminate while connecting, then the player's state word, the played
    /// part, every received range (holes stay visible) and a marker at each stall. Times are measured
    /// from the media's start, so a stream whose timestamps start at 1.4 s (MPEG-TS) still fills the bar
    /// from its left end.
    package var snapshot: ProgressSnapshot {
        guard let state else {
            return ProgressSnapshot(state: .loading, title: source, isIndeterminate: true)
        }
        let word: PlaybackStateWord =
            switch state {
            case .loading: .loading
            case .playing: .playing
            case .paused: .paused
            case .stalled: .stalled
            case .seeking: .seeking
            case .ended: .ended
            case .failed: .failed
            }
        return ProgressSnapshot(
            state: word, title: source, currentTime: max(0, currentTime - mediaStart), duration: duration,
            loaded: received.ranges.filter { $0.end > $0.start }.map { ($0.start - mediaStart)..<($0.end - mediaStart) },
            bufferedAhead: bufferedAhead, throughputBitsPerSecond: throughput, realtimeFactor: realtimeFactor,
            markers: stallPositions.map { ProgressMarker(.stall, at: $0 - mediaStart) })
    }
}
