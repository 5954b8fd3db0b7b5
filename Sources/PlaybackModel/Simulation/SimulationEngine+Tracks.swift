/// The engine with a separate audio track beside the video (`SimulationAudioTrack` has the rules), and the
/// request log of every track.
extension SimulationEngine {
    /// Whether a separate audio track is fetched beside the video.
    public var fetchesAudioTrack: Bool { audioTrack != nil }

    /// Every request sent so far, by the time it was sent (video before audio at the same time).
    public var requestLog: [SimulationRequest] {
        let video = downloader.log
        guard let audio = audioTrack?.downloader.log, !audio.isEmpty else { return video }
        var merged: [SimulationRequest] = []
        merged.reserveCapacity(video.count + audio.count)
        var (v, a) = (0, 0)
        while v < video.count || a < audio.count {
            if a >= audio.count || (v < video.count && video[v].start <= audio[a].start) {
                merged.append(video[v])
                v += 1
            } else {
                merged.append(audio[a])
                a += 1
            }
        }
        return merged
    }

    /// The player wants data from `position`: the tracks go on when it is where their common data ends,
    /// else both move to the segment holding it (a seek out of the buffer, or into evicted data).
    mutating func startLoadingTracks(from position: Double) {
        let videoFrontier = downloader.frontier()
        let audioFrontier = audioTrack?.downloader.frontier() ?? .infinity
        if abs(position - min(videoFrontier, audioFrontier)) <= TimeRanges.defaultTolerance {
            loadTracks()
            return
        }
        let unit = media.restartUnit(for: position)
        guard unit < media.unitCount else { return }
        let audioUnit = audioTrack.map { $0.downloader.media.restartUnit(for: position) } ?? 0
        downloader.move(to: unit, position: position, at: clock)
        audioTrack?.downloader.move(to: audioUnit, position: position, at: clock)
        audioTrack?.videoRanges = TimeRanges()
        audioTrack?.audioRanges = TimeRanges()
        session.restartDelivery()
        selection?.noteSeek(segment: unit)
        chooseVariant()
        let origin = downloader.requestFromNextUnit(at: clock)
        if audioTrack.map({ audioUnit < $0.downloader.media.unitCount }) == true {
            _ = audioTrack?.downloader.requestFromNextUnit(at: clock)
        }
        record(.request, value: Double(origin))
    }

    /// While the player loads: the track whose data ends first requests its next segment, and the other
    /// one too while its own buffer ahead is below the forward target.
    mutating func loadTracks() {
        guard session.player.isLoading else { return }
        let playhead = session.player.currentTime
        let target = policy.forwardTarget
        let videoFrontier = downloader.frontier()
        let audioFrontier = audioTrack?.downloader.frontier() ?? .infinity
        if !downloader.isLoading, videoFrontier.isFinite,
            videoFrontier <= audioFrontier || videoFrontier - playhead < target
        {
            chooseVariant()
            downloader.requestSegment(at: clock)
        }
        if audioTrack?.downloader.isLoading == false, audioFrontier.isFinite,
            audioFrontier <= videoFrontier || audioFrontier - playhead < target
        {
            audioTrack?.downloader.requestSegment(at: clock)
        }
    }

    /// A segment of `track` covering `range` arrived: the part of it the other track holds too becomes
    /// playable.
    mutating func receive(_ range: TimeRange, on track: SimulationRequest.Track) -> [PlayerAction] {
        let other: TimeRanges
        switch track {
        case .video:
            audioTrack?.videoRanges.insert(range)
            other = audioTrack?.audioRanges ?? TimeRanges()
        case .audio:
            audioTrack?.audioRanges.insert(range)
            other = audioTrack?.videoRanges ?? TimeRanges()
        }
        var actions: [PlayerAction] = []
        var delivered = false
        var index = other.firstIndex(endingAfter: range.start)
        while index < other.count, other[index].start < range.end {
            if let common = range.clamped(to: other[index]), !common.isEmpty {
                actions += session.receive(common, now: clock)
                delivered = true
            }
            index += 1
        }
        return delivered ? actions : session.advance(to: clock)
    }

    /// The audio segment in flight arrived.
    mutating func completeAudioDownload() {
        guard case .unit(_, let unit, _, _, _) = audioTrack?.downloader.complete(at: clock) else { return }
        handle(receive(TimeRange(start: unit.start, duration: unit.duration), on: .audio))
        audioTrack?.downloader.releaseAfterDelivery()
        loadTracks()
        guard audioTrack.map({ $0.downloader.nextUnit >= $0.downloader.media.unitCount }) == true else { return }
        audioTrack?.downloader.finish()
        announceEndIfComplete()
    }

    /// The next time a request's bytes start to flow (the end of its latency); `infinity` for none.
    func nextFlowStart() -> Double {
        min(downloader.flowStart(after: clock), audioTrack?.downloader.flowStart(after: clock) ?? .infinity)
    }

    /// Splits the link equally between the transfers whose bytes flow now.
    mutating func shareLink() {
        var flows = downloader.isFlowing(at: clock) ? 1 : 0
        if audioTrack?.downloader.isFlowing(at: clock) == true { flows += 1 }
        let share = Double(max(flows, 1))
        downloader.share(share, at: clock)
        audioTrack?.downloader.share(share, at: clock)
    }
}
