package import PlaybackModel
package import ProgressLine

/// What the live line shows of a running simulation: the player's state, playhead, loaded ranges and
/// buffer, the simulated bandwidth, and markers for the stalls and seeks so far. Times are relative to
/// the playable start (the session's `presented...` values), so the bar runs from 0 to the duration; the
/// events' positions already are. With a ladder (`--abr`) the bar is segmented: each loaded segment in its
/// variant's look, the segment being fetched in the look of its variant, and the legend naming that variant.
package enum SimulationSnapshot {
    /// The live line's snapshot of `engine` now, titled `title`, at `speed` times real time.
    package static func make(_ engine: SimulationEngine, title: String, speed: Double) -> ProgressSnapshot {
        let session = engine.session
        var markers: [ProgressMarker] = []
        for event in engine.events {
            switch event.kind {
            // Where the picture froze, whether the player stalled or its audio played on alone.
            case .stallStart, .audioAlone: markers.append(ProgressMarker(.stall, at: event.position))
            case .seek: markers.append(ProgressMarker(.seek, at: event.value ?? event.position))
            case .gapSkipped: markers.append(ProgressMarker(.gap, at: event.position))
            default: break
            }
        }
        var segments: SegmentProgress?
        if let ladder = engine.ladder {
            var starts: [Double] = []
            starts.reserveCapacity(ladder.durations.count)
            var time = session.presentationTime(ladder.startTime)
            for duration in ladder.durations {
                starts.append(time)
                time += duration
            }
            segments = SegmentProgress(
                starts: starts, current: engine.currentUnit,
                variants: engine.deliveredVariants.map { $0 >= 0 ? $0 : nil }, variantBitRates: ladder.bitRates,
                currentVariant: engine.currentVariant)
        }
        return ProgressSnapshot(
            state: PlaybackStateWord(engine.player.state),
            title: title,
            currentTime: session.presentedCurrentTime,
            duration: engine.media.duration,
            loaded: session.presentedLoaded.map { $0.start..<$0.end },
            bufferedAhead: session.player.item.bufferedAhead,
            throughputBitsPerSecond: engine.network.bandwidth(at: engine.clock),
            playbackSpeed: speed,
            markers: markers,
            segments: segments)
    }
}
