package import PlaybackModel

/// What a running check shows on the live line: the player as it is now, plus receiving figures.
package struct CheckProgress: Sendable {
    /// The URL or path.
    package var source: String
    /// Seconds since the check began.
    package var elapsed: Double
    /// The player's state; `nil` while connecting and opening.
    package var state: PlayerState?
    /// The playhead, media seconds.
    package var currentTime = 0.0
    /// Seconds loaded ahead of the playhead.
    package var bufferedAhead = 0.0
    /// Media positions of the stalls so far.
    package var stallPositions: [Double] = []
    /// Playable media received (not only what the player still holds).
    package var received = TimeRanges()
    /// Media positions of the holes the player jumped so far.
    package var gapPositions: [Double] = []
    /// Media time shown as 0: the playable start (the bar starts there).
    package var mediaStart = 0.0
    /// Media duration from the playable start, seconds.
    package var duration: Double?
    /// Bits per second received so far.
    package var throughput: Double?
    /// Media seconds received per wall second so far.
    package var realtimeFactor: Double?

    /// A check still connecting and opening.
    package init(source: String, elapsed: Double) {
        self.source = source
        self.elapsed = elapsed
    }

    /// A check receiving media.
    package init(
        source: String, elapsed: Double, state: PlayerState, currentTime: Double, bufferedAhead: Double,
        stallPositions: [Double], received: TimeRanges, mediaStart: Double, duration: Double?, throughput: Double?,
        realtimeFactor: Double?
    ) {
        self.source = source
        self.elapsed = elapsed
        self.state = state
        self.currentTime = currentTime
        self.bufferedAhead = bufferedAhead
        self.stallPositions = stallPositions
        self.received = received
        self.mediaStart = mediaStart
        self.duration = duration
        self.throughput = throughput
        self.realtimeFactor = realtimeFactor
    }
}
