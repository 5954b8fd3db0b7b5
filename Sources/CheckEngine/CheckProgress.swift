package import PlaybackModel

/// What a running check shows on the live line: the player as it is now, plus receiving figures. Every
/// media time counts from the playable start, as the report's: the session's `PlaybackSession` makes the
/// shift (`presentationTime`), so a stream whose timestamps start at 1.4 s (MPEG-TS) shows 0 there.
package struct CheckProgress: Sendable {
    /// The URL or path.
    package var source: String
    /// Seconds since the check began.
    package var elapsed: Double
    /// The player's state; `nil` while connecting and opening.
    package var state: PlayerState?
    /// The playhead, from the playable start.
    package var currentTime = 0.0
    /// Seconds loaded ahead of the playhead.
    package var bufferedAhead = 0.0
    /// Where the stalls so far happened, from the playable start.
    package var stallPositions: [Double] = []
    /// Playable media received (not only what the player still holds), from the playable start.
    package var received = TimeRanges()
    /// Where the holes the player jumped so far begin, from the playable start.
    package var gapPositions: [Double] = []
    /// Media duration from the playable start, seconds.
    package var duration: Double?
    /// Bits per second received so far.
    package var throughput: Double?
    /// Media seconds received per wall second so far.
    package var realtimeFactor: Double?
    /// For a live stream whose media is on the clock: the latency and the window around the playhead.
    package var live: Live?

    /// Where a live playhead is against the live edge, media times from the playable start.
    package struct Live: Sendable, Hashable {
        /// Seconds behind the live edge (the stream clock minus the playhead's capture time).
        package var latency: Double
        /// The oldest media the origin still lists, when known: the time-shift window's start.
        package var windowStart: Double?
        /// The media being captured now: the live edge.
        package var edge: Double
    }

    /// A check still connecting and opening.
    package init(source: String, elapsed: Double) {
        self.source = source
        self.elapsed = elapsed
    }

    /// A check receiving media.
    package init(
        source: String, elapsed: Double, state: PlayerState, currentTime: Double, bufferedAhead: Double,
        stallPositions: [Double], received: TimeRanges, duration: Double?, throughput: Double?,
        realtimeFactor: Double?
    ) {
        self.source = source
        self.elapsed = elapsed
        self.state = state
        self.currentTime = currentTime
        self.bufferedAhead = bufferedAhead
        self.stallPositions = stallPositions
        self.received = received
        self.duration = duration
        self.throughput = throughput
        self.realtimeFactor = realtimeFactor
    }
}
