/// The player state machine shared by `check` and `simulate`: it owns a `PlaybackItem`, moves its playhead
/// with the clock time the caller passes, and decides when playback starts, stalls, resumes and ends.
///
/// No I/O and no clock of its own: every event function takes `now` (seconds on the caller's clock, never
/// decreasing; an earlier `now` is taken as the latest one), first advances the player to `now`, then
/// applies the event, and returns the actions in the order they happened. With `recordsEvents` on,
/// observation events (periodic time, state changes, actions, each with its clock time) also collect in an
/// outbox drained by `takeEvents()`.
///
/// Rules:
/// - The playhead moves only while `playing`, at `rate` media seconds per clock second, stops exactly at the
///   end of the loaded range holding it, and never passes the end of the media.
/// - Initial loading (`loading`) lasts until `isPlaybackLikelyToKeepUp` (start threshold): startup delay.
/// - Reaching the end of the loaded data while playing, before the end of the media, is a stall; it ends
///   when `isPlaybackLikelyToKeepUp` holds again (resume threshold) or the buffer is full.
/// - A seek to a loaded time completes at once and keeps the data; any other seek waits as `seeking` until
///   the target is loaded (and, when playing is wanted, likely to keep up): seek latency, not a stall.
/// - A hole of at most `maxGapJump` seconds with data after it is jumped as soon as the playhead reaches
///   it (`skippedGap`), as players do; a stall at a hole ends by jumping it once the data after it reaches
///   the resume threshold.
/// - After `endOfStream`, the end of the loaded data is the end: the playhead ends there, and jumps holes
///   that can no longer fill (`skippedGap`).
/// - Loading is wanted until `bufferedAhead` exceeds the forward target (reaches it, when not playing),
///   everything to the end is loaded, the stream ended, or playback ended or failed.
/// - Data more than `policy.backBuffer` seconds behind the playhead is evicted.
public struct Player: Sendable {
    /// The longest hole (seconds) the playhead jumps as soon as it reaches it, when data after the hole
    /// is loaded, rather than stalling there while the stream goes on: hls.js and AVPlayer jump holes in
    /// the buffer, Shaka jumps small ones (`smallGapLimit`, 0.5 s) and, with `jumpLargeGaps`, any. Holes
    /// longer than this are a missing part of the media worth a stall; after the end of stream every hole
    /// is jumped.
    public static let maxGapJump = 5.0

    /// The most observation events kept undrained; older ones are dropped first.
    public static let maxPendingEvents = 100_000

    /// The media being played, with the playhead and loaded ranges.
    public var item: PlaybackItem {
        var item = current
        item.defersStallFlag = false
        return item
    }
    private var current: PlaybackItem
    /// The current state.
    public private(set) var state: PlayerState
    /// The latest clock time the player was advanced to.
    public private(set) var clock: Double
    /// The clock time the player was created at.
    public let startClock: Double
    /// Whether the user wants playback (play, or a positive rate) rather than pause.
    public private(set) var wantsToPlay: Bool
    /// Whether the player last asked for loading (`startLoading`) rather than `stopLoading`.
    public private(set) var isLoading = false
    /// Clock seconds between periodic time events; `nil` for none.
    public let timeObserverInterval: Double?
    /// Whether events collect in the outbox for `takeEvents()`; off by default. Drivers act on the returned
    /// actions; turn it on to watch the periodic time and state changes too (every event copies the item,
    /// and millions of them cost more than the model itself).
    public var recordsEvents = false
    private var hasStarted = false
    private var isSettled = false
    private var nextTickIndex = 1
    private var outbox: [PlayerEvent] = []
    private var outboxStart = 0
    private var accounting = QoEReport()

    /// Creates a player for media of `duration` starting at media time `mediaStart`, created at clock time
    /// `now`, in `loading`. Call `advance(to:)` (or any event) to get the first `startLoading`.
    /// - Parameters:
    ///   - duration: how long the media is (finite, unknown, or unbounded for live).
    ///   - policy: the thresholds that decide when playback starts, resumes and loading stops.
    ///   - mediaStart: media time of the first instant of the media; progress is measured from here.
    ///   - startPosition: where the playhead starts; `mediaStart` when `nil`.
    ///   - loaded: data already loaded (e.g. from a cache); none by default.
    ///   - rate: the playback rate, media seconds per clock second (1 = normal speed).
    ///   - autoplay: whether playback is wanted from the start (as after `AVPlayer.play()`); when false the
    ///     player starts `paused`.
    ///   - timeObserverInterval: clock seconds between periodic events, 0.5 s as in the seed article.
    ///   - now: the clock time the player is created at, in seconds on the caller's clock.
    public init(
        duration: MediaDuration, policy: BufferPolicy = .default, mediaStart: Double = 0,
        startPosition: Double? = nil, loaded: TimeRanges? = nil, rate: Double = 1, autoplay: Bool = true,
        timeObserverInterval: Double? = 0.5, now: Double
    ) {
        var item = PlaybackItem(duration: duration, mediaStart: mediaStart, policy: policy)
        if let loaded { item.loadedTimeRanges.formUnion(loaded) }
        item.currentTime = Self.clamp(startPosition ?? mediaStart, in: item)
        item.rate = rate > 0 && rate.isFinite ? rate : 1
        item.defersStallFlag = true
        item.updateStallFlag()
        self.current = item
        self.clock = now
        self.startClock = now
        self.wantsToPlay = autoplay
        self.state = autoplay ? .loading(since: now) : .paused(since: now)
        self.timeObserverInterval = timeObserverInterval.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
    }

    // MARK: Queries

    /// The playback rate, media seconds per clock second.
    public var rate: Double { current.rate }

    /// The playhead (`item.currentTime` without copying the item, for per-packet drivers).
    public var currentTime: Double { current.currentTime }

    /// The buffer policy in force.
    public var policy: BufferPolicy { current.policy }

    /// Whether the player wants data now (the rule `startLoading`/`stopLoading` follow).
    public var wantsMoreData: Bool { computeWantsMoreData(current.status, refillDue: false) }

    /// The clock time of the next change that happens with no further input: the playhead reaching the end
    /// of the loaded range holding it or the end of the media (a stall or the end), or, while loading is
    /// stopped, the buffer falling below the forward target (`startLoading`). `nil` when nothing will
    /// change without input. Always later than `clock`. An event-driven simulation can jump straight to it.
    public var nextDeadline: Double? {
        guard case .playing = state else { return nil }
        var deadline = clock + (playLimit - current.currentTime) / current.rate
        if let refill = refillDeadline { deadline = Swift.min(deadline, refill) }
        return deadline > clock ? deadline : clock.nextUp
    }

    /// The QoE report so far (ongoing stalls and seeks counted up to `clock`).
    public var report: QoEReport {
        var report = accounting
        report.elapsed = clock - startClock
        switch state {
        case .stalled(_, let since):
            if !report.stalls.isEmpty { report.stalls[report.stalls.count - 1].duration = clock - since }
        case .seeking(_, _, let since):
            if !report.seeks.isEmpty { report.seeks[report.seeks.count - 1].latency = clock - since }
        case .ended:
            report.ended = true
        default:
            break
        }
        return report
    }

    /// Removes and returns the observation events collected since the last call, oldest first.
    public mutating func takeEvents() -> [PlayerEvent] {
        let events = Array(outbox[outboxStart...])
        outbox.removeAll(keepingCapacity: true)
        outboxStart = 0
        return events
    }

    // MARK: Events

    /// Moves the clock to `now`: the playhead advances while playing, and stalls, the end and loading
    /// changes happen at the exact clock time they fall on.
    public mutating func advance(to now: Double) -> [PlayerAction] {
        var actions: [PlayerAction] = []
        advance(to: now, into: &actions)
        return actions
    }

    /// Data for `range` arrived (media time); data behind the playhead is accepted and evicted by the
    /// back-buffer rule.
    public mutating func loaded(_ range: TimeRange, now: Double) -> [PlayerAction] {
        event(now) { player, _ in player.current.loadedTimeRanges.insert(range) }
    }

    /// Data for every range of `ranges` arrived (e.g. a `LoadedRangeTracker`'s `playable`).
    public mutating func loaded(_ ranges: TimeRanges, now: Double) -> [PlayerAction] {
        event(now) { player, _ in player.current.loadedTimeRanges.formUnion(ranges) }
    }

    /// The user asks for playback.
    public mutating func play(now: Double) -> [PlayerAction] {
        event(now) { player, actions in
            player.wantsToPlay = true
            guard case .paused = player.state else { return }
            if !player.hasStarted {
                player.transition(to: .loading(since: player.clock), into: &actions)
            } else if player.current.bufferedAhead > 0 || player.current.isAtEnd {
                player.transition(to: .playing(since: player.clock), into: &actions)
            } else {
                player.beginStall(into: &actions)
            }
        }
    }

    /// The user pauses. A stall in progress ends here; initial loading continues as paused time.
    public mutating func pause(now: Double) -> [PlayerAction] {
        event(now) { player, actions in
            player.wantsToPlay = false
            switch player.state {
            case .loading, .playing:
                player.transition(to: .paused(since: player.clock), into: &actions)
            case .stalled:
                player.endStall(into: &actions)
                player.transition(to: .paused(since: player.clock), into: &actions)
            case .paused, .seeking, .ended, .failed:
                break
            }
        }
    }

    /// The user seeks to media time `target` (clamped to the media). Inside the loaded ranges the seek
    /// completes at once and keeps the data; elsewhere the player waits in `seeking`. Before playback ever
    /// started, a seek only moves the start position (the wait stays startup delay).
    public mutating func seek(to target: Double, now: Double) -> [PlayerAction] {
        event(now) { player, actions in
            guard !target.isNaN else { return }
            if case .failed = player.state { return }
            let to = Self.clamp(target, in: player.current)
            var from = player.current.currentTime
            var since = player.clock
            switch player.state {
            case .stalled:
                player.endStall(into: &actions)
            case .seeking(let originalFrom, _, let originalSince):
                // One continuous wait for the user: measure from the first seek, replace its record.
                from = originalFrom
                since = originalSince
                player.accounting.seeks.removeLast()
            default:
                break
            }
            player.current.currentTime = to
            player.current.isRebuffering = false
            player.current.stallsSinceSeek = 0
            let isLoadedThere = player.current.loadedTimeRanges.contains(to) || player.current.isAtEnd
            if !isLoadedThere, player.canLoad {
                player.isLoading = true
                player.emit(.startLoading(from: to), into: &actions)
            }
            guard player.hasStarted else { return }
            player.emit(.seekStarted(from: from, to: to), into: &actions)
            player.accounting.seeks.append(.init(from: from, to: to, start: since, latency: 0))
            if isLoadedThere {
                let latency = player.clock - since
                player.accounting.seeks[player.accounting.seeks.count - 1].latency = latency
                player.emit(.seekCompleted(from: from, to: to, latency: latency), into: &actions)
                player.resumeAfterSeek(into: &actions)
            } else {
                player.transition(to: .seeking(from: from, to: to, since: since), into: &actions)
            }
        }
    }

    /// Sets the playback rate. 0 pauses, a positive rate also plays (as `AVPlayer.rate`); a negative or
    /// NaN rate is ignored.
    public mutating func setRate(_ rate: Double, now: Double) -> [PlayerAction] {
        guard rate >= 0, rate.isFinite else { return advance(to: now) }
        if rate == 0 { return pause(now: now) }
        var actions = event(now) { player, _ in player.current.rate = rate }
        if !wantsToPlay { actions += play(now: now) }
        return actions
    }

    /// Loading finished: no more data will arrive, so the end of the loaded data is the end.
    public mutating func endOfStream(now: Double) -> [PlayerAction] {
        event(now) { player, _ in player.current.isEndOfStream = true }
    }

    /// Playback failed for `reason`; a stall in progress ends here.
    public mutating func failed(_ reason: String, now: Double) -> [PlayerAction] {
        event(now) { player, actions in
            if case .failed = player.state { return }
            if case .stalled = player.state { player.endStall(into: &actions) }
            if case .seeking(_, _, let since) = player.state {
                // The seek never completes; its latency is the wait until the failure.
                player.accounting.seeks[player.accounting.seeks.count - 1].latency = player.clock - since
            }
            player.accounting.failure = reason
            player.emit(.failed(reason: reason), into: &actions)
            player.transition(to: .failed(reason: reason, since: player.clock), into: &actions)
        }
    }

    /// Sets the network estimate the predictive keep-up rule uses.
    public mutating func updateNetwork(_ estimate: NetworkEstimate?, now: Double) -> [PlayerAction] {
        event(now) { player, _ in player.current.network = estimate }
    }

    /// Replaces the buffer policy (e.g. the network became constrained).
    public mutating func updatePolicy(_ policy: BufferPolicy, now: Double) -> [PlayerAction] {
        event(now) { player, _ in player.current.policy = policy }
    }

    /// Sets the duration once it becomes known (or changes, for a growing stream).
    public mutating func updateDuration(_ duration: MediaDuration, now: Double) -> [PlayerAction] {
        event(now) { player, _ in player.current.duration = duration }
    }

    // MARK: Machinery

    /// Advances to `now`, applies `change`, then settles the state and loading.
    private mutating func event(
        _ now: Double, _ change: (inout Player, inout [PlayerAction]) -> Void
    ) -> [PlayerAction] {
        var actions: [PlayerAction] = []
        advance(to: now, into: &actions)
        change(&self, &actions)
        settle(refillDue: false, into: &actions)
        return actions
    }

    private mutating func advance(to now: Double, into actions: inout [PlayerAction]) {
        // Every event ends settled; only a new player has not settled yet.
        if !isSettled { settle(refillDue: false, into: &actions) }
        let target = now.isNaN ? clock : now
        while clock < target {
            var end = target
            var hitsLimit = false
            var refillDue = false
            let tick = nextTick
            if let tick, tick < end { end = tick }
            if case .playing = state {
                let limitTime = clock + (playLimit - current.currentTime) / current.rate
                if limitTime <= end {
                    end = limitTime
                    hitsLimit = true
                }
                if let refill = refillDeadline, refill <= end {
                    end = refill
                    refillDue = true
                    hitsLimit = hitsLimit && refill == limitTime
                }
            }
            // A segment that rounds to no time at all would never move the clock.
            if end <= clock { end = Swift.min(target, clock.nextUp) }
            let wasPlaying = state == .playing(since: state.since)
            accrue(until: end, hitsLimit: hitsLimit)
            // Outside playing, time passing changes no buffer fact, so there is nothing to settle.
            if wasPlaying || refillDue { settle(refillDue: refillDue, into: &actions) }
            if let tick, tick <= clock {
                if !state.isTerminal { record(.periodic) }
                nextTickIndex += 1
            }
        }
    }

    /// Lets `clock` reach `end` in the current state, moving the playhead while playing.
    private mutating func accrue(until end: Double, hitsLimit: Bool) {
        let elapsed = end - clock
        switch state {
        case .loading: accounting.startupDelay += elapsed
        case .paused: accounting.pausedTime += elapsed
        case .stalled: accounting.stallTime += elapsed
        case .seeking: accounting.seekWaitTime += elapsed
        case .ended, .failed: accounting.idleTime += elapsed
        case .playing:
            accounting.playedWallTime += elapsed
            let limit = playLimit
            let position = hitsLimit ? limit : Swift.min(current.currentTime + elapsed * current.rate, limit)
            accounting.played += position - current.currentTime
            current.currentTime = position
        }
        clock = end
    }

    /// Applies every transition the current buffer allows, then evicts and updates loading.
    private mutating func settle(refillDue: Bool, into actions: inout [PlayerAction]) {
        isSettled = true
        // Each step changes the state; a handful covers every chain (stalled -> playing -> ended).
        var steps = 0
        snapPlayheadToNearbyData()
        var buffer = current.status
        while steps < 8, step(buffer, into: &actions) {
            steps += 1
            snapPlayheadToNearbyData()
            buffer = current.status
        }
        // Eviction never touches the range holding the playhead, so `buffer` stays true.
        evictBackBuffer()
        let wants = computeWantsMoreData(buffer, refillDue: refillDue)
        if wants != isLoading {
            isLoading = wants
            emit(wants ? .startLoading(from: loadPosition) : .stopLoading, into: &actions)
        }
        current.updateStallFlag(buffer)
    }

    /// One transition, if the buffer allows one; returns whether the state changed.
    private mutating func step(_ buffer: PlaybackItem.Status, into actions: inout [PlayerAction]) -> Bool {
        let isEndOfStream = current.isEndOfStream
        switch state {
        case .loading:
            if buffer.isAtEnd {
                end(into: &actions)
            } else if buffer.isLikelyToKeepUp || (isEndOfStream && buffer.bufferedAhead > 0) {
                hasStarted = true
                accounting.started = true
                emit(.started(startupDelay: accounting.startupDelay), into: &actions)
                transition(to: .playing(since: clock), into: &actions)
            } else if isEndOfStream, !skipGap(into: &actions) {
                end(into: &actions)
            } else {
                return false
            }
        case .playing:
            if buffer.isAtEnd {
                end(into: &actions)
            } else if buffer.bufferedAhead <= 0 {
                if isEndOfStream {
                    if !skipGap(into: &actions) { end(into: &actions) }
                } else if jumpableGap(needing: 0) != nil {
                    // Still playing: the next pass sees the data after the hole.
                    _ = skipGap(into: &actions)
                } else {
                    beginStall(into: &actions)
                }
            } else {
                return false
            }
        case .stalled:
            if buffer.isAtEnd {
                endStall(into: &actions)
                end(into: &actions)
            } else if buffer.isLikelyToKeepUp || buffer.isFull
                || (isEndOfStream && buffer.bufferedAhead > 0)
            {
                endStall(into: &actions)
                transition(to: .playing(since: clock), into: &actions)
            } else if jumpableGap(needing: current.keepUpThreshold) != nil {
                endStall(into: &actions)
                _ = skipGap(into: &actions)
                transition(to: .playing(since: clock), into: &actions)
            } else if isEndOfStream {
                endStall(into: &actions)
                if skipGap(into: &actions) {
                    transition(to: .playing(since: clock), into: &actions)
                } else {
                    end(into: &actions)
                }
            } else {
                return false
            }
        case .seeking(let from, let to, let since):
            let isLoaded = buffer.bufferedAhead > 0 || buffer.isAtEnd
            let isReady =
                wantsToPlay
                ? buffer.isLikelyToKeepUp || (isEndOfStream && isLoaded) : isLoaded
            guard isReady || isEndOfStream else { return false }
            let latency = clock - since
            accounting.seeks[accounting.seeks.count - 1].latency = latency
            emit(.seekCompleted(from: from, to: to, latency: latency), into: &actions)
            resumeAfterSeek(into: &actions)
        case .paused, .ended, .failed:
            return false
        }
        return true
    }

    /// Back to playing or paused after a completed seek, keeping the state (and its start) when unchanged.
    private mutating func resumeAfterSeek(into actions: inout [PlayerAction]) {
        switch (wantsToPlay, state) {
        case (true, .playing), (false, .paused): break
        case (true, _): transition(to: .playing(since: clock), into: &actions)
        case (false, _): transition(to: .paused(since: clock), into: &actions)
        }
    }

    private mutating func beginStall(into actions: inout [PlayerAction]) {
        let position = current.currentTime
        current.stallsSinceSeek += 1
        current.isRebuffering = true
        accounting.stalls.append(.init(position: position, start: clock, duration: 0))
        emit(.stallBegan(position: position), into: &actions)
        transition(to: .stalled(position: position, since: clock), into: &actions)
    }

    private mutating func endStall(into actions: inout [PlayerAction]) {
        guard case .stalled(let position, let since) = state else { return }
        let duration = clock - since
        accounting.stalls[accounting.stalls.count - 1].duration = duration
        current.isRebuffering = false
        emit(.stallEnded(position: position, duration: duration), into: &actions)
    }

    private mutating func end(into actions: inout [PlayerAction]) {
        if case .ended = state { return }
        emit(.ended(position: current.currentTime), into: &actions)
        transition(to: .ended(since: clock), into: &actions)
    }

    /// The hole the playhead sits in, when the data after it is loaded and it is small enough to jump
    /// while more data may still come (`maxGapJump`): at least `needing` seconds of it (or all of it to
    /// the end of the media).
    private func jumpableGap(needing: Double) -> TimeRange? {
        let ranges = current.loadedTimeRanges
        let time = current.currentTime
        guard let next = ranges.firstRange(startingAtOrAfter: time), next.start > time,
            next.start - time <= Self.maxGapJump
        else { return nil }
        let mediaEnd = current.mediaEnd ?? .infinity
        guard next.start < mediaEnd else { return nil }
        guard next.end - next.start >= needing || next.end >= mediaEnd else { return nil }
        return TimeRange(start: time, end: next.start)
    }

    /// Jumps the playhead to the next loaded range, if there is one (a hole after the end of stream, or a
    /// `jumpableGap`).
    private mutating func skipGap(into actions: inout [PlayerAction]) -> Bool {
        guard let next = current.loadedTimeRanges.firstRange(startingAtOrAfter: current.currentTime),
            next.start < current.mediaEnd ?? .infinity
        else { return false }
        emit(.skippedGap(TimeRange(start: current.currentTime, end: next.start)), into: &actions)
        current.currentTime = next.start
        return true
    }

    /// A playhead just before a range (by less than the merge tolerance, e.g. a first packet at 0.02 s)
    /// moves onto it, as players skip such slivers; larger holes are real and wait for data.
    private mutating func snapPlayheadToNearbyData() {
        let ranges = current.loadedTimeRanges
        guard !ranges.contains(current.currentTime),
            let next = ranges.firstRange(startingAtOrAfter: current.currentTime),
            next.start - current.currentTime <= ranges.tolerance
        else { return }
        current.currentTime = Self.clamp(next.start, in: current)
    }

    private mutating func evictBackBuffer() {
        let keepFrom = current.currentTime - current.policy.backBuffer
        if let start = current.loadedTimeRanges.start, start < keepFrom {
            current.loadedTimeRanges.removeAll(before: keepFrom)
        }
    }

    private mutating func transition(to newState: PlayerState, into actions: inout [PlayerAction]) {
        let old = state
        state = newState
        if old != newState { record(.stateChanged(from: old)) }
    }

    private mutating func emit(_ action: PlayerAction, into actions: inout [PlayerAction]) {
        actions.append(action)
        record(.action(action))
    }

    private mutating func record(_ kind: PlayerEvent.Kind) {
        guard recordsEvents else { return }
        if outbox.count - outboxStart >= Self.maxPendingEvents {
            outboxStart += 1
            if outboxStart > Self.maxPendingEvents / 2 {
                outbox.removeFirst(outboxStart)
                outboxStart = 0
            }
        }
        outbox.append(PlayerEvent(kind: kind, clockTime: clock, state: state, item: item))
    }

    private var canLoad: Bool { !current.isEndOfStream && !state.isTerminal }

    private func computeWantsMoreData(_ buffer: PlaybackItem.Status, refillDue: Bool) -> Bool {
        guard canLoad else { return false }
        guard !buffer.isLoadedThroughEnd else { return false }
        if refillDue { return true }
        let ahead = buffer.bufferedAhead
        if case .playing = state { return ahead <= current.policy.forwardTarget }
        return ahead < current.policy.forwardTarget
    }

    /// Where loading should continue: the end of the range holding the playhead, or the playhead.
    private var loadPosition: Double {
        current.loadedTimeRanges.range(containing: current.currentTime)?.end ?? current.currentTime
    }

    /// How far the playhead can move without new data: the end of the range holding it, capped at the end
    /// of the media.
    private var playLimit: Double {
        let end = current.loadedTimeRanges.range(containing: current.currentTime)?.end ?? current.currentTime
        return Swift.max(current.currentTime, Swift.min(end, current.mediaEnd ?? .infinity))
    }

    /// While playing with loading stopped, when `bufferedAhead` falls back to the forward target.
    private var refillDeadline: Double? {
        guard case .playing = state, !isLoading, canLoad else { return nil }
        let buffer = current.status
        guard !buffer.isLoadedThroughEnd else { return nil }
        let excess = buffer.bufferedAhead - current.policy.forwardTarget
        return excess > 0 ? clock + excess / current.rate : nil
    }

    private var nextTick: Double? {
        timeObserverInterval.map { startClock + Double(nextTickIndex) * $0 }
    }

    private static func clamp(_ time: Double, in item: PlaybackItem) -> Double {
        var time = time
        if let end = item.mediaEnd { time = Swift.min(time, end) }
        if item.duration.seconds != nil { time = Swift.max(time, item.mediaStart) }
        return time
    }
}
