/// The buffering state of one piece of media, in `AVPlayerItem`'s vocabulary, computed exactly from the
/// loaded time ranges and the playhead. A plain value: the `Player` owns one and moves its playhead.
public struct PlaybackItem: Sendable, Hashable {
    /// How long the media is.
    public var duration: MediaDuration
    /// Media time of the first instant of the media (0 for most files; the container's start time for
    /// MPEG-TS and the like); progress is measured from here.
    public var mediaStart: Double
    /// The playhead, in media seconds.
    public var currentTime: Double
    /// The media time loaded and playable.
    public var loadedTimeRanges: TimeRanges
    /// The thresholds the buffer flags use.
    public var policy: BufferPolicy
    /// Playback rate (1 = normal speed); only the predictive keep-up rule uses it.
    public var rate: Double
    /// The network estimate for predictive keep-up; `nil` when unknown.
    public var network: NetworkEstimate?
    /// Whether loading has finished: nothing more will arrive, so the end of the loaded data is the end.
    public var isEndOfStream: Bool
    /// Whether the player is recovering from a stall, so keep-up needs the resume threshold rather than
    /// the start threshold.
    public var isRebuffering: Bool
    /// Stalls since playback started or the last seek, the current one included: the resume threshold
    /// in force is `policy.resumeThreshold(afterStall:)` of it (a growing threshold starts over on a seek,
    /// as Chromium's source reads: a seek flushes its audio queue; read there, not measured).
    public var stallsSinceSeek: Int = 0
    /// The seconds buffered ahead that make playback likely to keep up under the threshold rule now: the
    /// resume threshold for this stall while rebuffering, else the start threshold.
    public var keepUpThreshold: Double {
        isRebuffering ? policy.resumeThreshold(afterStall: stallsSinceSeek) : policy.startThreshold
    }

    /// Creates an item with its playhead at `mediaStart` and the given loaded ranges (none by default,
    /// merged with `TimeRanges.defaultTolerance`).
    public init(
        duration: MediaDuration, mediaStart: Double = 0, policy: BufferPolicy = .default,
        loadedTimeRanges: TimeRanges = TimeRanges()
    ) {
        self.duration = duration
        self.mediaStart = mediaStart
        self.currentTime = mediaStart
        self.loadedTimeRanges = loadedTimeRanges
        self.policy = policy
        self.rate = 1
        self.network = nil
        self.isEndOfStream = false
        self.isRebuffering = false
    }

    /// The media time at which the media ends, when the duration is finite.
    public var mediaEnd: Double? { duration.seconds.map { mediaStart + $0 } }

    /// The playhead as a fraction of the duration, clamped to 0...1; 0 when the duration is not finite
    /// and positive.
    public var progress: Double { fraction(of: currentTime) }

    /// Seconds loaded contiguously ahead of the playhead (end of the range holding it, minus the
    /// playhead), never counting past the end of the media; 0 when no range holds the playhead.
    public var bufferedAhead: Double { status.bufferedAhead }

    /// How far the buffer bar reaches, as a fraction of the duration clamped to 0...1: the end of the
    /// range holding the playhead (not the first range's end, the seed article's admitted error), or the
    /// playhead itself when nothing is loaded there. Never less than `progress`.
    public var bufferedFraction: Double {
        fraction(of: loadedTimeRanges.range(containing: currentTime)?.end ?? currentTime)
    }

    /// Whether the playhead is at the end: at the end of the media, or, after the end of stream, with no
    /// loaded data at or after it.
    public var isAtEnd: Bool { status.isAtEnd }

    /// Whether the data ahead of the playhead reaches the end of the media (or the end of the stream),
    /// so nothing more is needed to play to the end.
    public var isLoadedThroughEnd: Bool { status.isLoadedThroughEnd }

    /// `AVPlayerItem.isPlaybackBufferEmpty`: nothing is loaded at the playhead, and it is not at the end.
    public var isPlaybackBufferEmpty: Bool { status.isEmpty }

    /// `AVPlayerItem.isPlaybackBufferFull`: the forward target is buffered, or everything to the end is.
    public var isPlaybackBufferFull: Bool { status.isFull }

    /// `AVPlayerItem.isPlaybackLikelyToKeepUp`: by threshold (`bufferedAhead` reaches the start threshold,
    /// the resume threshold while rebuffering), by prediction or by a player's own rule (see
    /// `BufferPolicy.KeepUpRule`); always
    /// true once everything to the end is loaded.
    public var isPlaybackLikelyToKeepUp: Bool { status.isLikelyToKeepUp }

    /// The buffer facts every flag derives from, found with one range lookup.
    struct Status {
        var bufferedAhead: Double
        var isAtEnd: Bool
        var isLoadedThroughEnd: Bool
        var isFull: Bool
        var isLikelyToKeepUp: Bool
        var isEmpty: Bool { bufferedAhead <= 0 && !isAtEnd }
    }

    /// All buffer facts at once; cheaper than reading the flags one by one.
    var status: Status { status(holding: loadedTimeRanges.range(containing: currentTime)) }

    /// `status`, given the loaded range holding the playhead (`nil`: none), for callers that looked it up.
    func status(holding range: TimeRange?) -> Status {
        let end = mediaEnd ?? .infinity
        let isAtEnd =
            currentTime >= end
            || (isEndOfStream && range == nil && loadedTimeRanges.firstRange(startingAtOrAfter: currentTime) == nil)
        var throughEnd = isAtEnd
        if let range, !throughEnd {
            throughEnd = range.end >= end || (isEndOfStream && loadedTimeRanges.last == range)
        }
        let ahead = Swift.max(0, range.map { Swift.min($0.end, end) - currentTime } ?? 0)
        var likely = throughEnd
        if !likely, ahead > 0 {
            if case .predictive(let horizon) = policy.keepUp,
                let prediction = predictsKeepUp(horizon: horizon, bufferedAhead: ahead)
            {
                likely = prediction
            } else if case .player(let start) = policy.keepUp {
                likely = start.rule.isLikelyToKeepUp(self, bufferedAhead: ahead)
            } else {
                likely = ahead >= keepUpThreshold
            }
        }
        return Status(
            bufferedAhead: ahead, isAtEnd: isAtEnd, isLoadedThroughEnd: throughEnd,
            isFull: ahead >= policy.forwardTarget || throughEnd, isLikelyToKeepUp: likely)
    }

    /// The predictive rule, or `nil` when it lacks the inputs (no estimate, unknown end, unknown sizes).
    /// With throughput R bytes/s and B bytes still missing for the next H seconds of media, playback at
    /// rate r reaches the end of the horizon without a stall when B / R <= H / r.
    private func predictsKeepUp(horizon: Double?, bufferedAhead: Double) -> Bool? {
        guard let network, network.bytesPerSecond > 0, rate > 0 else { return nil }
        let toEnd = mediaEnd.map { $0 - currentTime }
        guard let span = horizon.map({ Swift.min($0, toEnd ?? .infinity) }) ?? toEnd, span > 0 else { return nil }
        let missingMedia = Swift.max(0, span - bufferedAhead)
        let missingBytes: Double
        if span == toEnd, let remaining = network.remainingBytes {
            missingBytes = remaining
        } else if let perSecond = network.mediaBytesPerSecond {
            missingBytes = missingMedia * perSecond
        } else {
            return nil
        }
        return missingBytes / network.bytesPerSecond <= span / rate
    }

    private func fraction(of time: Double) -> Double {
        guard let seconds = duration.seconds, seconds > 0, seconds.isFinite else { return 0 }
        let value = (time - mediaStart) / seconds
        return value.isNaN ? 0 : Swift.min(Swift.max(value, 0), 1)
    }
}
