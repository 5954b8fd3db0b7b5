package import MediaIO

/// How far behind the live edge one check's player is, measured as players measure it: the stream's
/// clock now minus the clock time of the media at the playhead (`LiveLatencyTracker` holds the rules).
///
/// Fed from the running check: HLS media is placed on the clock by `EXT-X-PROGRAM-DATE-TIME` (the first
/// media segment FFmpeg opened, `segmentOpened(url:)`, against the media time of the first packet read,
/// `packet(mediaTime:)`; later segments follow on the media timeline, as a player extrapolates), the edge
/// is the end of the newest segment of each playlist load (`playlistLoaded(_:url:at:)`). DASH feeds
/// `anchor`, `edge`, `useClock` and `holdBack` from the manifest's availability times.
///
/// Times given as `at` are seconds since the check began on the check's clock; the stream clock reads
/// `unixAtStart + at + offset`, `offset` being how far the stream's clock (DASH `UTCTiming`) is ahead of
/// this machine's. A value held by `CheckMachine`, fed by its events.
package struct LiveEdgeState: Sendable {
    private struct State: Sendable {
        var tracker = LiveLatencyTracker()
        /// Clock times of the segments listed by the playlists loaded so far, by resolved URL (bounded).
        var segmentTimes: [String: Double] = [:]
        var firstSegment: String?
        var firstPacket: Double?
        /// Seconds of media the newest listing spans (the time-shift window).
        var window: Double?
    }

    /// This machine's clock (Unix seconds) when the check began.
    package var unixAtStart: Double
    private var state = State()

    /// A watch for a check that began at `unixAtStart` on this machine's clock.
    package init(unixAtStart: Double) { self.unixAtStart = unixAtStart }


    /// The stream's clock at check time `at`.
    private func streamClock(_ state: State, at time: Double) -> Double { unixAtStart + time + state.tracker.clock.offset }

    /// Which clock the stream's times are read against: `name` (`system`, or `utc_timing <scheme> <url>`)
    /// and its offset, seconds ahead of this machine's clock.
    package mutating func useClock(_ name: String, offset: Double) {
        state.tracker.clock = (name, offset.isFinite ? offset : 0)
    }

    /// What maps media to the clock: `program_date_time` or `availability_time`.
    package mutating func basis(_ basis: String) { state.tracker.basis = basis }

    /// `--live-start` as the report names it.
    package mutating func liveStart(_ name: String) { state.tracker.liveStart = name }

    /// Media time `mediaTime` (the packets' own timestamps, seconds) was captured at `unixTime` (stream clock).
    package mutating func anchor(mediaTime: Double, unixTime: Double) {
        state.tracker.anchor(mediaTime: mediaTime, unixTime: unixTime)
    }

    /// The newest media the origin lists ends at `unixTime` (stream clock), seen at check time `at`.
    package mutating func edge(unixTime: Double, at time: Double) {
        state.tracker.edge(unixTime: unixTime, now: streamClock(state, at: time))
    }

    /// The time-shift window: seconds of media the origin keeps listed behind its edge.
    package mutating func window(seconds: Double) {
        guard seconds.isFinite, seconds >= 0 else { return }
        state.window = seconds
    }

    /// The hold-back the player applied at start (seconds behind the edge; `nil` to have it measured from
    /// the first packet and the edge), the target and the rule's name.
    package mutating func holdBack(applied: Double?, target: Double?, rule: String?) {
        if let applied { state.tracker.holdBack.applied = applied }
        state.tracker.holdBack.target = target
        state.tracker.holdBack.rule = rule
    }

    // MARK: HLS

    /// A media playlist the player loaded at check time `at` (from `url`): its segments' program
    /// date-times and its edge. A playlist that maps nothing to the clock is only its window.
    package mutating func playlistLoaded(_ playlist: HLSPlaylist, url: String, at time: Double) {
        guard playlist.kind == .media, !playlist.hasEndList else { return }
        state.window = playlist.totalDuration
        guard let last = playlist.segments.last, let lastDate = last.programDateTime else { return }
        state.tracker.basis = "program_date_time"
        if state.segmentTimes.count > 4096 { state.segmentTimes.removeAll(keepingCapacity: true) }
        for segment in playlist.segments {
            guard let date = segment.programDateTime else { continue }
            state.segmentTimes[URLReference.resolve(segment.uri, against: url)] = date
        }
        state.tracker.edge(unixTime: lastDate + last.duration, now: streamClock(state, at: time))
        Self.anchorFirstSegment(&state)
    }

    /// FFmpeg opened `url` (any resource: only a segment some playlist listed counts); the first such
    /// segment holds the first media read.
    package mutating func segmentOpened(url: String) {
        guard state.firstSegment == nil, state.segmentTimes[url] != nil else { return }
        state.firstSegment = url
        Self.anchorFirstSegment(&state)
    }

    /// A packet of a played stream was read, media time `mediaTime`.
    package mutating func packet(mediaTime: Double) {
        guard state.firstPacket == nil, mediaTime.isFinite else { return }
        state.firstPacket = mediaTime
        state.tracker.firstMedia(mediaTime)
        Self.anchorFirstSegment(&state)
    }

    private static func anchorFirstSegment(_ state: inout State) {
        guard !state.tracker.isAnchored, let media = state.firstPacket, let url = state.firstSegment,
            let date = state.segmentTimes[url]
        else { return }
        state.tracker.anchor(mediaTime: media, unixTime: date)
    }

    // MARK: Reading

    /// Records the latency at check time `at` with the playhead at `playhead` (media time); call only once
    /// playback has started.
    package mutating func sample(at time: Double, playhead: Double) {
        state.tracker.sample(playhead: playhead, now: streamClock(state, at: time))
    }

    /// What the live line shows at check time `at`: the latency with the playhead at `playhead`, and the
    /// time-shift window's start and the live edge in media time; `nil` before media is on the clock.
    package func view(at time: Double, playhead: Double) -> (latency: Double, windowStart: Double?, edge: Double)? {
        let now = streamClock(state, at: time)
        guard let latency = state.tracker.latency(playhead: playhead, now: now),
            let edge = state.tracker.mediaTime(ofUnix: now)
        else { return nil }
        // The edge moves with the clock between looks; the window trails it by what the origin lists.
        return (latency, state.window.map { edge - $0 }, edge)
    }

    /// Whether the media is on a clock: `report()` has a latency to give (the report and the live line then
    /// leave out the real-time factor, which the backlog of a start behind the edge would inflate).
    package var isOnClock: Bool { state.tracker.basis != nil && state.tracker.isAnchored }

    /// `live_latency`, `nil` when no media was placed on the clock.
    package func report() -> CheckReport.LiveLatency? { state.tracker.report() }
}
