/// The engine with a separate audio track beside the video (`SimulationAudioTrack` has the rules), and the
/// request log of every track.
extension SimulationEngine {
    /// Whether a separate audio track is fetched beside the video.
    public var fetchesAudioTrack: Bool { audioTrack != nil }

    /// Seconds the player plays on with audio alone after the video runs out (Chromium's video-underflow
    /// grace under MSE, `PlayerProfile.videoUnderflowGrace`; `SimulationAudioTrack` has the rule). Only with
    /// a separate audio track; 0, the default, stalls as soon as either track runs out.
    public var videoUnderflowGrace: Double {
        get { audioTrack?.underflowGrace ?? 0 }
        set { audioTrack?.underflowGrace = max(0, newValue.isFinite ? newValue : 0) }
    }

    /// Schedules the audio as dash.js does (`SimulationAudioTrack`'s lead rule): only while its level, less
    /// `shortfall`, is below the video's plus `lead`. Only with a separate audio track.
    public mutating func scheduleAudio(leadOverVideo lead: Double, shortfall: Double) {
        audioTrack?.leadOverVideo = lead
        audioTrack?.bufferedShortfall = max(0, shortfall)
    }

    /// Limits the audio to `segments` x the longest video segment past the end of the video's data, as
    /// Shaka does (`SimulationAudioTrack`'s run-ahead rule). Only with a separate audio track.
    public mutating func limitAudioRunAhead(segments: Double) {
        let longest = ladder?.durations.max() ?? media.duration / Double(max(media.unitCount, 1))
        audioTrack?.runAhead = max(0, segments) * longest
    }

    /// Lends the player the grace past the end of the video it plays from, while it plays and the audio
    /// runs on past that end: up to `videoUnderflowGrace` after it, cut at the end of the audio there (lent
    /// again as more audio arrives, the 3 s still counted from the video's end).
    mutating func lendUnderflowGrace() {
        guard let track = audioTrack, track.underflowGrace > 0, case .playing = session.player.state else { return }
        let playhead = session.player.currentTime
        if let video = track.videoRanges.range(containing: playhead) { audioTrack?.graceAnchor = video.end }
        guard let anchor = audioTrack?.graceAnchor, anchor < media.startTime + media.duration,
            let audio = track.audioRanges.range(containing: anchor), audio.end > anchor
        else { return }
        let grace = TimeRange(start: anchor, end: min(anchor + track.underflowGrace, audio.end))
        if let held = session.player.item.loadedTimeRanges.range(containing: grace.start), held.end >= grace.end { return }
        handle(session.lend(grace, now: clock))
    }

    /// Before a step, with an underflow grace: where the playhead is, whether it plays, the video's ranges
    /// and the clock, for `afterTrackStep(from:)` to count what the step played with no video under it.
    struct PictureMark {
        var playhead: Double
        var video: TimeRanges
        var clock: Double
    }

    /// The mark before a step while playing over a separate audio track with a grace; `nil` otherwise.
    func pictureMark() -> PictureMark? {
        guard let track = audioTrack, track.underflowGrace > 0, case .playing = session.player.state else { return nil }
        return PictureMark(playhead: session.player.currentTime, video: track.videoRanges, clock: clock)
    }

    /// After a step over a separate audio track: the media the step played beyond the video's data (the
    /// video ranges did not change until the step's own event, at its end) counts as audio alone, a frozen
    /// picture; then the grace is lent again and the link shared anew. A jump (a seek) counts nothing.
    mutating func afterTrackStep(from mark: PictureMark?) {
        guard audioTrack != nil else { return }
        if let mark {
            let (start, end) = (mark.playhead, session.player.currentTime)
            let rate = session.player.item.rate
            if end > start, rate > 0, end - start <= (clock - mark.clock) * rate + 1e-9 {
                var covered = 0.0
                var firstUncovered = start
                var index = mark.video.firstIndex(endingAfter: start)
                while index < mark.video.count, mark.video[index].start < end {
                    covered += min(end, mark.video[index].end) - max(start, mark.video[index].start)
                    if mark.video[index].start <= firstUncovered { firstUncovered = max(firstUncovered, mark.video[index].end) }
                    index += 1
                }
                let alone = (end - start) - covered
                if alone > 1e-9 {
                    audioTrack?.audioAloneTime += alone / rate
                    // A new stretch of frozen picture: marked where it begins, as a stall is.
                    if audioTrack?.playingAlone == false { record(.audioAlone, position: min(firstUncovered, end), value: nil) }
                }
                audioTrack?.playingAlone = alone > 1e-9
            }
        } else {
            audioTrack?.playingAlone = false
        }
        lendUnderflowGrace()
        shareLink()
    }

    /// The buffer ahead the ABR rule sees. A player model over a separate audio track reads the video's own
    /// (its source buffer's `buffered`, as dash.js's rules read `dashMetrics.getCurrentBufferLevel` of the
    /// video: `streaming/rules/abr/InsufficientBufferRule.js` 100, `AbandonRequestsRule.js` 74,
    /// `BolaRule.js` 489, `controllers/AbrController.js` 896, and the video's `BufferController.js` 904-917
    /// for the ThroughputRule, at af3cef0), without the audio Chromium plays on past the video's end (the
    /// underflow grace); every other case reads the player's buffer ahead.
    var abrBufferedAhead: Double {
        guard let track = audioTrack, selection?.isPlayerModel == true else { return session.player.item.bufferedAhead }
        let playhead = session.player.currentTime
        guard let video = track.videoRanges.range(containing: playhead) else { return 0 }
        return max(0, video.end - playhead)
    }

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

    /// The player wants data from `position`: the tracks go on when it is where their common data ends, or
    /// within the underflow grace past it (the player's buffer then ends on audio the video has not reached
    /// yet, lent by `lendUnderflowGrace`, while the video's next segment may still be in flight), else both
    /// move to the segment holding it (a seek out of the buffer, or into evicted data). Taking a position in
    /// the grace for a seek cleared the tracks' ranges mid-play: dash.js's rules then saw an empty video
    /// buffer and dropped to the lowest variant (at 1.5 Mbit/s on a 60 s clip, segments 18 and 28 of 30).
    mutating func startLoadingTracks(from position: Double) {
        let videoFrontier = downloader.frontier()
        let audioFrontier = audioTrack?.downloader.frontier() ?? .infinity
        let common = min(videoFrontier, audioFrontier)
        let graceEnd = min(max(videoFrontier, audioFrontier), common + (audioTrack?.underflowGrace ?? 0))
        let tolerance = TimeRanges.defaultTolerance
        if position >= common - tolerance, position <= max(common, graceEnd) + tolerance {
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
        audioTrack?.graceAnchor = nil
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
        audioTrack?.recheckTime = .infinity
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
        guard var track = audioTrack, !track.downloader.isLoading, audioFrontier.isFinite else { return }
        // Held back by the run-ahead limit, the audio looks again only when its timer fires.
        if track.runAhead != nil, clock < track.waitsUntil {
            audioTrack?.recheckTime = track.waitsUntil
            return
        }
        let nextDuration = track.downloader.unit(track.downloader.nextUnit).duration
        if track.mayLoad(
            audioFrontier: audioFrontier, videoFrontier: videoFrontier, playhead: playhead, target: target,
            nextDuration: nextDuration)
        {
            audioTrack?.downloader.requestSegment(at: clock)
        } else if track.runAhead != nil {
            audioTrack?.waitsUntil = clock + SimulationAudioTrack.runAheadRetry
            audioTrack?.recheckTime = clock + SimulationAudioTrack.runAheadRetry
        } else if track.leadOverVideo != nil {
            audioTrack?.recheckTime = clock + SimulationAudioTrack.recheckInterval
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
