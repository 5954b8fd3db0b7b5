// The player's machinery: time passing, the transitions the buffer allows, loading and eviction. It sits
// apart from Player.swift (the state, the queries and the events a driver calls) so that each file reads as
// one concern; that is why the state it writes is internal to the module rather than private.
extension Player {
    /// Advances to `now`, applies `change`, then settles the state and loading.
    mutating func event(
        _ now: Double, _ change: (inout Player, inout [PlayerAction]) -> Void
    ) -> [PlayerAction] {
        var actions = freshActions()
        advance(to: now, into: &actions)
        change(&self, &actions)
        settle(refillDue: false, into: &actions)
        return actions
    }

    /// An empty actions array on the storage `recycle(_:)` handed back, if any (a new one when the caller
    /// still holds that storage).
    mutating func freshActions() -> [PlayerAction] {
        var actions: [PlayerAction] = []
        swap(&actions, &spareActions)
        // An array handed back empty (most are) needs no clearing call.
        if !actions.isEmpty { actions.removeAll(keepingCapacity: true) }
        return actions
    }

    mutating func advance(to now: Double, into actions: inout [PlayerAction]) {
        // Every event ends settled; only a new player has not settled yet.
        if !isSettled { settle(refillDue: false, into: &actions) }
        let target = now.isNaN ? clock : now
        while clock < target {
            var end = target
            var hitsLimit = false
            var refillDue = false
            let tick = nextTick
            if let tick, tick < end { end = tick }
            var nudgeDue = false
            if let nudge = nudgeDeadline, nudge <= end {
                end = nudge
                nudgeDue = true
            }
            // The play limit, worked out once per stretch: `accrue` plays up to the same one.
            var limit = item.currentTime
            if case .playing = state {
                let holding = holdingRange
                limit = playLimit(holding: holding)
                let limitTime = clock + (limit - item.currentTime) / item.rate
                if limitTime <= end {
                    end = limitTime
                    hitsLimit = true
                }
                if let refill = refillDeadline(holding: holding), refill <= end {
                    end = refill
                    refillDue = true
                    hitsLimit = hitsLimit && refill == limitTime
                }
            }
            // A segment that rounds to no time at all would never move the clock.
            if end <= clock { end = Swift.min(target, clock.nextUp) }
            // As `state == .playing(since: state.since)`, without the enum comparison (a NaN start is never equal).
            var wasPlaying = false
            if case .playing(let since) = state { wasPlaying = since == since }
            accrue(until: end, hitsLimit: hitsLimit, limit: limit)
            // Outside playing, time passing changes no buffer fact, so there is nothing to settle.
            if wasPlaying || refillDue || nudgeDue { settle(refillDue: refillDue, into: &actions) }
            if let tick, tick <= clock {
                if !state.isTerminal { record(.periodic) }
                nextTickIndex += 1
            }
        }
    }

    /// Lets `clock` reach `end` in the current state, moving the playhead while playing, up to `limit` (the
    /// `playLimit` of the state as it is).
    private mutating func accrue(until end: Double, hitsLimit: Bool, limit: Double) {
        let elapsed = end - clock
        switch state {
        case .loading: accounting.startupDelay += elapsed
        case .paused: accounting.pausedTime += elapsed
        case .stalled: accounting.stallTime += elapsed
        case .seeking: accounting.seekWaitTime += elapsed
        case .ended, .failed: accounting.idleTime += elapsed
        case .playing:
            accounting.playedWallTime += elapsed
            let position = hitsLimit ? limit : Swift.min(item.currentTime + elapsed * item.rate, limit)
            accounting.played += position - item.currentTime
            item.currentTime = position
        }
        clock = end
    }

    /// Applies every transition the current buffer allows, then evicts and updates loading.
    private mutating func settle(refillDue: Bool, into actions: inout [PlayerAction]) {
        isSettled = true
        // Each step changes the state; a handful covers every chain (stalled -> playing -> ended).
        var steps = 0
        var buffer = item.status(holding: snapPlayheadToNearbyData())
        while steps < 8, step(buffer, into: &actions) {
            steps += 1
            buffer = item.status(holding: snapPlayheadToNearbyData())
        }
        // Eviction never touches the range holding the playhead, so `buffer` stays true.
        evictBackBuffer()
        let wants = computeWantsMoreData(buffer, refillDue: refillDue)
        if wants != isLoading {
            isLoading = wants
            emit(wants ? .startLoading(from: loadPosition) : .stopLoading, into: &actions)
        }
    }

    /// One transition, if the buffer allows one; returns whether the state changed.
    private mutating func step(_ buffer: PlaybackItem.Status, into actions: inout [PlayerAction]) -> Bool {
        let isEndOfStream = item.isEndOfStream
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
            } else if buffer.bufferedAhead <= stallLevel {
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
            } else if let nudge = nudgeDeadline, nudge <= clock {
                // The watchdog's poll runs as the data is appended, before the browser resumes by itself.
                endStall(into: &actions)
                self.nudge(buffer, into: &actions)
            } else if buffer.isLikelyToKeepUp || buffer.isFull
                || (isEndOfStream && buffer.bufferedAhead > 0)
            {
                endStall(into: &actions)
                // The playhead moves again by itself while the watchdog times the stall: hls.js clears
                // its nudge count (`gap-controller.ts` 59-75 at 2ca771e: `nudgeRetry = 0` when the
                // playhead moves with `stalled` set; a nudge's seek clears `stalled` first, so nudged
                // stalls in a row still add up).
                nudges = 0
                transition(to: .playing(since: clock), into: &actions)
            } else if jumpableGap(needing: item.keepUpThreshold) != nil {
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
    mutating func resumeAfterSeek(into actions: inout [PlayerAction]) {
        switch (wantsToPlay, state) {
        case (true, .playing), (false, .paused): break
        case (true, _): transition(to: .playing(since: clock), into: &actions)
        case (false, _): transition(to: .paused(since: clock), into: &actions)
        }
    }

    mutating func beginStall(into actions: inout [PlayerAction]) {
        let position = item.currentTime
        item.stallsSinceSeek += 1
        item.isRebuffering = true
        accounting.stalls.append(.init(position: position, start: clock, duration: 0))
        emit(.stallBegan(position: position), into: &actions)
        transition(to: .stalled(position: position, since: clock), into: &actions)
    }

    mutating func endStall(into actions: inout [PlayerAction]) {
        guard case .stalled(let position, let since) = state else { return }
        let duration = clock - since
        accounting.stalls[accounting.stalls.count - 1].duration = duration
        item.isRebuffering = false
        emit(.stallEnded(position: position, duration: duration), into: &actions)
    }

    /// When the policy's stall nudge is due: while stalled with more than its minimum buffered ahead,
    /// `period` after the stall began; `nil` otherwise.
    var nudgeDeadline: Double? {
        guard case .stalled(_, let since) = state, let nudge = item.policy.stallNudge,
            item.status.bufferedAhead > nudge.minimumAhead
        else { return nil }
        return since + nudge.period
    }

    /// The player's watchdog seeks the playhead on (within the data ahead) and plays: a seek, so the
    /// resume threshold starts over; or, after its last nudge, playback fails.
    private mutating func nudge(_ buffer: PlaybackItem.Status, into actions: inout [PlayerAction]) {
        guard let watchdog = item.policy.stallNudge else { return }
        if let most = watchdog.maxNudges, nudges >= most {
            accounting.failure = watchdog.failure
            emit(.failed(reason: watchdog.failure), into: &actions)
            transition(to: .failed(reason: watchdog.failure, since: clock), into: &actions)
            return
        }
        let offset = watchdog.offset * Double(nudges + 1)
        nudges += 1
        item.currentTime = Self.clamp(item.currentTime + Swift.min(offset, buffer.bufferedAhead), in: item)
        item.stallsSinceSeek = 0
        transition(to: .playing(since: clock), into: &actions)
    }

    private mutating func end(into actions: inout [PlayerAction]) {
        if case .ended = state { return }
        emit(.ended(position: item.currentTime), into: &actions)
        transition(to: .ended(since: clock), into: &actions)
    }

    /// The hole the playhead sits in, when the data after it is loaded and it is small enough to jump
    /// while more data may still come (`maxGapJump`): at least `needing` seconds of it (or all of it to
    /// the end of the media).
    private func jumpableGap(needing: Double) -> TimeRange? {
        let ranges = item.loadedTimeRanges
        let time = item.currentTime
        guard let next = ranges.firstRange(startingAtOrAfter: time), next.start > time,
            next.start - time <= Self.maxGapJump
        else { return nil }
        let mediaEnd = item.mediaEnd ?? .infinity
        guard next.start < mediaEnd else { return nil }
        guard next.end - next.start >= needing || next.end >= mediaEnd else { return nil }
        return TimeRange(start: time, end: next.start)
    }

    /// Jumps the playhead to the next loaded range, if there is one (a hole after the end of stream, or a
    /// `jumpableGap`).
    private mutating func skipGap(into actions: inout [PlayerAction]) -> Bool {
        guard let next = item.loadedTimeRanges.firstRange(startingAtOrAfter: item.currentTime),
            next.start < item.mediaEnd ?? .infinity
        else { return false }
        emit(.skippedGap(TimeRange(start: item.currentTime, end: next.start)), into: &actions)
        item.currentTime = next.start
        return true
    }

    /// A playhead just before a range (by less than the merge tolerance, e.g. a first packet at 0.02 s)
    /// moves onto it, as players skip such slivers; larger holes are real and wait for data. Returns the
    /// loaded range holding the playhead afterwards (`nil`: none), which every settle asks next.
    private mutating func snapPlayheadToNearbyData() -> TimeRange? {
        // The ranges read in place (no copy of the set): this runs at every settle.
        if let holding = item.loadedTimeRanges.range(containing: item.currentTime) { return holding }
        guard let next = item.loadedTimeRanges.firstRange(startingAtOrAfter: item.currentTime),
            next.start - item.currentTime <= item.loadedTimeRanges.tolerance
        else { return nil }
        item.currentTime = Self.clamp(next.start, in: item)
        return holdingRange
    }

    private mutating func evictBackBuffer() {
        let keepFrom = item.currentTime - item.policy.backBuffer
        if let start = item.loadedTimeRanges.start, start < keepFrom {
            item.loadedTimeRanges.removeAll(before: keepFrom)
        }
    }

    mutating func transition(to newState: PlayerState, into actions: inout [PlayerAction]) {
        let old = state
        state = newState
        if old != newState { record(.stateChanged(from: old)) }
    }

    mutating func emit(_ action: PlayerAction, into actions: inout [PlayerAction]) {
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

    var canLoad: Bool { !item.isEndOfStream && !state.isTerminal }

    func computeWantsMoreData(_ buffer: PlaybackItem.Status, refillDue: Bool) -> Bool {
        guard canLoad else { return false }
        guard !buffer.isLoadedThroughEnd else { return false }
        if refillDue { return true }
        let ahead = buffer.bufferedAhead
        if case .playing = state { return ahead <= item.policy.forwardTarget }
        return ahead < item.policy.forwardTarget
    }

    /// Where loading should continue: the end of the range holding the playhead, or the playhead.
    private var loadPosition: Double {
        item.loadedTimeRanges.range(containing: item.currentTime)?.end ?? item.currentTime
    }

    /// How far the playhead can move without new data: the end of the range holding it, capped at the end
    /// of the media, less the policy's stall level.
    var playLimit: Double { playLimit(holding: holdingRange) }

    /// `playLimit`, given the loaded range holding the playhead (`holdingRange`).
    func playLimit(holding: TimeRange?) -> Double {
        let end = holding?.end ?? item.currentTime
        return Swift.max(item.currentTime, Swift.min(end, item.mediaEnd ?? .infinity) - stallLevel(loadedEnd: end))
    }

    /// The loaded range holding the playhead, `nil` when none does: the one lookup the queries below share.
    var holdingRange: TimeRange? { item.loadedTimeRanges.range(containing: item.currentTime) }

    /// The policy's stall level, or 0 once the data holding the playhead reaches the end of the media or
    /// the stream ended (the rest then plays out).
    var stallLevel: Double {
        // The policy first, as `stallLevel(loadedEnd:)` does: with no stall level, no lookup.
        guard item.policy.stallLevel > 0, !item.isEndOfStream else { return 0 }
        return stallLevel(loadedEnd: holdingRange?.end ?? item.currentTime)
    }

    /// `stallLevel`, given the end of the loaded range holding the playhead (the playhead when none does).
    private func stallLevel(loadedEnd end: Double) -> Double {
        let level = item.policy.stallLevel
        guard level > 0, !item.isEndOfStream else { return 0 }
        if let mediaEnd = item.mediaEnd, end >= mediaEnd - TimeRanges.defaultTolerance { return 0 }
        return level
    }

    /// While playing with loading stopped, when `bufferedAhead` falls back to the forward target.
    var refillDeadline: Double? { refillDeadline(holding: holdingRange) }

    /// `refillDeadline`, given the loaded range holding the playhead (`holdingRange`).
    func refillDeadline(holding: TimeRange?) -> Double? {
        guard case .playing = state, !isLoading, canLoad else { return nil }
        let buffer = item.status(holding: holding)
        guard !buffer.isLoadedThroughEnd else { return nil }
        let excess = buffer.bufferedAhead - item.policy.forwardTarget
        return excess > 0 ? clock + excess / item.rate : nil
    }

    private var nextTick: Double? {
        timeObserverInterval.map { startClock + Double(nextTickIndex) * $0 }
    }

    static func clamp(_ time: Double, in item: PlaybackItem) -> Double {
        var time = time
        if let end = item.mediaEnd { time = Swift.min(time, end) }
        if item.duration.seconds != nil { time = Swift.max(time, item.mediaStart) }
        return time
    }
}
