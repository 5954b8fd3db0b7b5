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
/// - Reaching the end of the loaded data while playing (the policy's `stallLevel` before it, when the data
///   does not reach the end of the media), before the end of the media, is a stall; it ends
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
    public internal(set) var item: PlaybackItem
    /// The current state.
    public internal(set) var state: PlayerState
    /// The latest clock time the player was advanced to.
    public internal(set) var clock: Double
    /// The clock time the player was created at.
    public let startClock: Double
    /// Whether the user wants playback (play, or a positive rate) rather than pause.
    public internal(set) var wantsToPlay: Bool
    /// Whether the player last asked for loading (`startLoading`) rather than `stopLoading`.
    public internal(set) var isLoading = false
    /// Clock seconds between periodic time events; `nil` for none.
    public let timeObserverInterval: Double?
    /// Whether events collect in the outbox for `takeEvents()`; off by default. Drivers act on the returned
    /// actions; turn it on to watch the periodic time and state changes too (every event copies the item,
    /// and millions of them cost more than the model itself).
    public var recordsEvents = false
    // Internal rather than private, like the setters above: Player+Transitions.swift moves them.
    /// Whether playback ever started (a seek before it only moves the start).
    var hasStarted = false
    /// Whether the player settled since it was made (every event ends settled).
    var isSettled = false
    /// The index of the next periodic time event.
    var nextTickIndex = 1
    /// Observation events not yet taken, from `outboxStart` on.
    var outbox: [PlayerEvent] = []
    /// Where the undrained events start in `outbox`.
    var outboxStart = 0
    /// The QoE figures so far, ongoing stalls and seeks not yet counted up to `clock`.
    var accounting = QoEReport()
    /// The storage of the actions array a driver handed back (`recycle(_:)`): the next event writes into
    /// it, so a per-packet driver does not allocate an array for every event.
    var spareActions: [PlayerAction] = []
    /// The stall nudges in a row (`BufferPolicy.stallNudge`): like hls.js's count, cleared when a stall
    /// ends by itself, not by a nudge.
    var nudges = 0

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
        self.item = item
        self.clock = now
        self.startClock = now
        self.wantsToPlay = autoplay
        self.state = autoplay ? .loading(since: now) : .paused(since: now)
        self.timeObserverInterval = timeObserverInterval.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
    }

    // MARK: Queries

    /// The playback rate, media seconds per clock second.
    public var rate: Double { item.rate }

    /// The playhead (`item.currentTime` without copying the item, for per-packet drivers).
    public var currentTime: Double { item.currentTime }

    /// The buffer policy in force.
    public var policy: BufferPolicy { item.policy }

    /// Whether the player wants data now (the rule `startLoading`/`stopLoading` follow).
    public var wantsMoreData: Bool { computeWantsMoreData(item.status, refillDue: false) }

    /// The clock time of the next change that happens with no further input: the playhead reaching the end
    /// of the loaded range holding it or the end of the media (a stall or the end), or, while loading is
    /// stopped, the buffer falling below the forward target (`startLoading`); while stalled with data ahead,
    /// the policy's stall nudge. `nil` when nothing will
    /// change without input. Always later than `clock`. An event-driven simulation can jump straight to it.
    public var nextDeadline: Double? {
        if let nudge = nudgeDeadline { return nudge > clock ? nudge : clock.nextUp }
        guard case .playing = state else { return nil }
        let holding = holdingRange
        var deadline = clock + (playLimit(holding: holding) - item.currentTime) / item.rate
        if let refill = refillDeadline(holding: holding) { deadline = Swift.min(deadline, refill) }
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
        var actions = freshActions()
        advance(to: now, into: &actions)
        return actions
    }

    /// Hands back an actions array the caller is done with: the next event writes its actions into the same
    /// storage instead of a new array. Optional; it only saves an allocation per event.
    public mutating func recycle(_ actions: [PlayerAction]) { spareActions = actions }

    /// Data for `range` arrived (media time); data behind the playhead is accepted and evicted by the
    /// back-buffer rule.
    public mutating func loaded(_ range: TimeRange, now: Double) -> [PlayerAction] {
        event(now) { player, _ in player.item.loadedTimeRanges.insert(range) }
    }

    /// Data for every range of `ranges` arrived (e.g. a `LoadedRangeTracker`'s `playable`).
    public mutating func loaded(_ ranges: TimeRanges, now: Double) -> [PlayerAction] {
        event(now) { player, _ in player.item.loadedTimeRanges.formUnion(ranges) }
    }

    /// The user asks for playback.
    public mutating func play(now: Double) -> [PlayerAction] {
        event(now) { player, actions in
            player.wantsToPlay = true
            guard case .paused = player.state else { return }
            if !player.hasStarted {
                player.transition(to: .loading(since: player.clock), into: &actions)
            } else if player.item.bufferedAhead > 0 || player.item.isAtEnd {
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
            let to = Self.clamp(target, in: player.item)
            var from = player.item.currentTime
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
            player.item.currentTime = to
            player.item.isRebuffering = false
            player.item.stallsSinceSeek = 0
            let isLoadedThere = player.item.loadedTimeRanges.contains(to) || player.item.isAtEnd
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
        var actions = event(now) { player, _ in player.item.rate = rate }
        if !wantsToPlay { actions += play(now: now) }
        return actions
    }

    /// Loading finished: no more data will arrive, so the end of the loaded data is the end.
    public mutating func endOfStream(now: Double) -> [PlayerAction] {
        event(now) { player, _ in player.item.isEndOfStream = true }
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
        event(now) { player, _ in player.item.network = estimate }
    }
}
