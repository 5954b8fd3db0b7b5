/// The one pipeline from demuxed packets to the player, shared by `check`, `simulate` and the tests'
/// oracle: it owns a `LoadedRangeTracker` and a `Player`, turns each packet into the playable time it
/// newly makes available, applies the start-at-first-data and play-out rules, and returns the player's
/// actions for the driver to act on (start or stop loading, record a stall...). No I/O, no clock.
///
/// Rules:
/// - Only the playable streams (`playableStreams(from:)`, chosen when the input opened) count; a packet of
///   any other stream, including one the demuxer added after opening, changes nothing.
/// - Newly playable time: the merged range of the packet's stream that now holds the packet, intersected
///   with every other playable stream's ranges, minus time behind the back buffer (evicted data is never
///   re-added from packets already held; `restartDelivery()` forgets them for a new request).
/// - Start at the first data: before playback has started, a playhead that still sits at the declared
///   start with no data under it moves to the first playable data (at or after it, else the earliest), as
///   players start at the first frame they have. A start the viewer chose (a seek before starting) stays.
/// - Presentation origin: `origin` is the playable start, the media time shown as 0 everywhere a user sees
///   a time; this type is the one place that shift is made (`presentationTime(_:)`, `presented(_:)`,
///   `presentedReceived`, `presentedLoaded`, `presentedCurrentTime`, `presentationDuration`, `report`);
///   absolute media times appear only where a field says so.
/// - Play-out: after `endOfStream`, `playOut()` runs the player on its own deadlines to its end.
public struct PlaybackSession: Sendable {
    /// The player being driven.
    public private(set) var player: Player
    /// Per-stream and playable loaded ranges of every packet received since the last restart.
    public private(set) var tracker: LoadedRangeTracker
    /// Every playable range received (never evicted, kept across restarts): what arrived.
    public private(set) var received: TimeRanges
    /// The media time shown as 0: the declared start, or the first playable data when playback started
    /// there instead.
    public private(set) var origin: Double
    /// The end of the latest playable time handed to the player since the last restart.
    public private(set) var deliveredPlayableEnd = -Double.infinity
    private var playheadIsDeclaredStart = true

    /// Creates a session at clock `now` for media of `duration` declared to start at `mediaStart`, whose
    /// player plays `playableStreams`. The other parameters are `Player`'s.
    public init(
        playableStreams: [Int], duration: MediaDuration, policy: BufferPolicy = .default, mediaStart: Double = 0,
        autoplay: Bool = true, timeObserverInterval: Double? = nil, now: Double
    ) {
        tracker = LoadedRangeTracker(playableStreams: playableStreams)
        received = TimeRanges()
        origin = mediaStart
        player = Player(
            duration: duration, policy: policy, mediaStart: mediaStart, autoplay: autoplay,
            timeObserverInterval: timeObserverInterval, now: now)
    }

    /// The streams the player plays.
    public var playableStreams: [Int] { tracker.playableStreams }

    /// `mediaTime` counted from the playable start.
    public func presentationTime(_ mediaTime: Double) -> Double { mediaTime - origin }

    /// `range` (media time) counted from the playable start.
    public func presented(_ range: TimeRange) -> TimeRange {
        TimeRange(start: range.start - origin, end: range.end - origin)
    }

    /// `ranges` (media time) counted from the playable start: every range moved back by `origin`, none
    /// merged or dropped.
    public func presented(_ ranges: TimeRanges) -> TimeRanges { ranges.shifted(back: origin) }

    /// Every playable range received (`received`), counted from the playable start.
    public var presentedReceived: TimeRanges { presented(received) }

    /// The player's loaded ranges, counted from the playable start.
    public var presentedLoaded: TimeRanges { presented(player.item.loadedTimeRanges) }

    /// The playhead, counted from the playable start.
    public var presentedCurrentTime: Double { presentationTime(player.currentTime) }

    /// The end of the media counted from the playable start, when the duration is known.
    public var presentationDuration: Double? { player.item.mediaEnd.map { $0 - origin } }

    /// The player's QoE report with every media position (stalls, seeks) counted from the playable start.
    public var report: QoEReport {
        var report = player.report
        for index in report.stalls.indices { report.stalls[index].position -= origin }
        for index in report.seeks.indices {
            report.seeks[index].from -= origin
            report.seeks[index].to -= origin
        }
        return report
    }

    /// Every hole the player jumped so far, in media time.
    public private(set) var skippedGaps: [TimeRange] = []

    // MARK: Stream choice

    /// One stream as the playable-stream rule sees it.
    public struct StreamCandidate: Sendable, Hashable {
        /// What a stream carries, as far as playing it goes.
        public enum Kind: Sendable, Hashable {
            /// Moving pictures.
            case video
            /// Sound.
            case audio
            /// Anything else (subtitles, data, attachments).
            case other
        }
        /// The stream's index in the input.
        public var index: Int
        /// What it carries.
        public var kind: Kind
        /// A cover art / attached picture: one still image, never played.
        public var isAttachedPicture: Bool
        /// Whether the demuxer names it its best stream of its kind (libavformat's `av_find_best_stream`).
        public var isPreferred: Bool

        /// Describes one stream.
        public init(index: Int, kind: Kind, isAttachedPicture: Bool = false, isPreferred: Bool = false) {
            self.index = index
            self.kind = kind
            self.isAttachedPicture = isAttachedPicture
            self.isPreferred = isPreferred
        }
    }

    /// The streams a player plays: the best video and the best audio stream, each the demuxer's preferred
    /// one when it is a candidate, else the first of its kind. Cover art and attached pictures never play.
    /// Video first, then audio; empty when neither exists.
    public static func playableStreams(from candidates: [StreamCandidate]) -> [Int] {
        func pick(_ kind: StreamCandidate.Kind) -> Int? {
            let eligible = candidates.filter { $0.kind == kind && !$0.isAttachedPicture }
            return (eligible.first(where: \.isPreferred) ?? eligible.first)?.index
        }
        return [pick(.video), pick(.audio)].compactMap { $0 }
    }

    // MARK: Feeding

    /// A packet arrived at clock `now`: the playable time it adds goes to the player. Returns the player's
    /// actions.
    public mutating func receive(_ packet: MediaPacket, now: Double) -> [PlayerAction] {
        let streams = tracker.playableStreams
        guard streams.isEmpty || streams.contains(packet.stream) else { return note(player.advance(to: now)) }
        tracker.add(packet)
        guard let time = packet.pts ?? packet.dts,
            let grown = tracker.range(ofStream: packet.stream, holdingOrAfter: time)
        else { return note(player.advance(to: now)) }
        let played = streams.isEmpty ? tracker.seenStreams : streams
        var otherCount = 0
        var firstOther = 0
        for stream in played where stream != packet.stream {
            if otherCount == 0 { firstOther = stream }
            otherCount += 1
        }
        var actions: [PlayerAction] = []
        var delivered = false
        switch otherCount {
        case 0:
            delivered = deliver(grown, now: now, into: &actions)
        case 1:
            // The usual case (video and audio): no intermediate lists, one call per common piece.
            let ranges = tracker.ranges(forStream: firstOther)
            var index = ranges.firstIndex(endingAfter: grown.start)
            while index < ranges.count, ranges[index].start < grown.end {
                if let common = grown.clamped(to: ranges[index]), !common.isEmpty {
                    delivered = deliver(common, now: now, into: &actions) || delivered
                }
                index += 1
            }
        default:
            var pieces = [grown]
            for other in played where other != packet.stream {
                let ranges = tracker.ranges(forStream: other)
                var clipped: [TimeRange] = []
                for piece in pieces {
                    for range in ranges where range.end > piece.start && range.start < piece.end {
                        if let common = piece.clamped(to: range), !common.isEmpty { clipped.append(common) }
                    }
                }
                pieces = clipped
            }
            for piece in pieces { delivered = deliver(piece, now: now, into: &actions) || delivered }
        }
        if !delivered { actions = player.advance(to: now) }
        if playheadIsDeclaredStart { actions += startAtFirstData(now: now) }
        return note(actions)
    }

    /// Records `piece` as received and hands the part the back buffer keeps to the player; whether the
    /// player was called.
    private mutating func deliver(_ piece: TimeRange, now: Double, into actions: inout [PlayerAction]) -> Bool {
        received.insert(piece)
        let kept = TimeRange(
            start: Swift.max(piece.start, player.currentTime - player.item.policy.backBuffer), end: piece.end)
        guard !kept.isEmpty else { return false }
        deliveredPlayableEnd = Swift.max(deliveredPlayableEnd, kept.end)
        let result = player.loaded(kept, now: now)
        if actions.isEmpty { actions = result } else { actions += result }
        return true
    }

    /// Playable time for every played stream at once arrived (a whole segment).
    public mutating func receive(_ range: TimeRange, now: Double) -> [PlayerAction] {
        received.insert(range)
        deliveredPlayableEnd = Swift.max(deliveredPlayableEnd, range.end)
        var actions = player.loaded(range, now: now)
        actions += startAtFirstData(now: now)
        return note(actions)
    }

    /// Time the player may play through although not every stream's data for it arrived (Chromium's
    /// video-underflow grace under MSE: the audio plays on while the video is missing): the player's loaded
    /// ranges take it, `received` and `deliveredPlayableEnd` do not.
    public mutating func lend(_ range: TimeRange, now: Double) -> [PlayerAction] {
        note(player.loaded(range, now: now))
    }

    /// A new request starts: packets already held are forgotten, so evicted time the request brings again
    /// is delivered again. `received` keeps what arrived.
    public mutating func restartDelivery() {
        tracker = LoadedRangeTracker(playableStreams: tracker.playableStreams, tolerance: tracker.tolerance)
        deliveredPlayableEnd = -.infinity
    }

    /// Hands back an actions array the caller is done with, for the player's next event to reuse
    /// (`Player.recycle(_:)`).
    public mutating func recycle(_ actions: [PlayerAction]) { player.recycle(actions) }

    /// No more data will arrive.
    public mutating func endOfStream(now: Double) -> [PlayerAction] {
        note(player.endOfStream(now: now))
    }

    /// After `endOfStream`: plays out what is loaded on the player's own deadlines, to the end (or until a
    /// bounded number of steps, for a player that never settles). Returns every action, in order.
    public mutating func playOut() -> [PlayerAction] {
        var actions: [PlayerAction] = []
        var steps = 0
        while let deadline = player.nextDeadline, steps < 100_000 {
            actions += player.advance(to: deadline)
            steps += 1
        }
        return note(actions)
    }

    // MARK: Player events

    /// Moves the clock to `now`.
    public mutating func advance(to now: Double) -> [PlayerAction] { note(player.advance(to: now)) }

    /// The viewer seeks to media time `target`; a seek before playback starts chooses the start.
    public mutating func seek(to target: Double, now: Double) -> [PlayerAction] {
        playheadIsDeclaredStart = false
        return note(player.seek(to: target, now: now))
    }

    /// The viewer presses play.
    public mutating func play(now: Double) -> [PlayerAction] { note(player.play(now: now)) }

    /// The viewer pauses.
    public mutating func pause(now: Double) -> [PlayerAction] { note(player.pause(now: now)) }

    /// The viewer changes the rate.
    public mutating func setRate(_ rate: Double, now: Double) -> [PlayerAction] { note(player.setRate(rate, now: now)) }

    /// Playback failed for `reason`.
    public mutating func failed(_ reason: String, now: Double) -> [PlayerAction] { note(player.failed(reason, now: now)) }

    /// Keeps what the session reports from the player's actions (the holes it jumped).
    private mutating func note(_ actions: [PlayerAction]) -> [PlayerAction] {
        for action in actions { if case .skippedGap(let range) = action { skippedGaps.append(range) } }
        return actions
    }

    /// The start-at-first-data rule (see the type's rules).
    private mutating func startAtFirstData(now: Double) -> [PlayerAction] {
        guard playheadIsDeclaredStart else { return [] }
        switch player.state {
        case .loading, .paused: break
        default:
            // Playback began (or ended): the start is decided.
            playheadIsDeclaredStart = false
            return []
        }
        let item = player.item
        let ranges = item.loadedTimeRanges
        guard !ranges.isEmpty else { return [] }
        playheadIsDeclaredStart = false
        // The player itself snaps onto data a sliver away; either way the playhead is the playable start.
        if ranges.contains(item.currentTime) {
            origin = item.currentTime
            return []
        }
        guard let target = ranges.firstRange(startingAtOrAfter: item.currentTime)?.start ?? ranges.start else {
            return []
        }
        origin = target
        playheadIsDeclaredStart = false
        return note(player.seek(to: target, now: now))
    }
}
