/// Quality of experience of one playback session, as ITU-T P.1203 counts it: startup delay, stalls
/// (media position and duration), seeks and their latency, time played. Built by `Player` from its events.
///
/// Every second of the session falls in exactly one bucket, so
/// `startupDelay + stallTime + seekWaitTime + playedWallTime + pausedTime + idleTime == elapsed`.
public struct QoEReport: Sendable, Hashable {
    /// One stall.
    public struct Stall: Sendable, Hashable, Codable {
        /// Media time where the playhead stopped.
        public var position: Double
        /// Clock time the stall began.
        public var start: Double
        /// Seconds it lasted (so far, while it is still going on).
        public var duration: Double

        /// Creates a stall record.
        public init(position: Double, start: Double, duration: Double) {
            self.position = position
            self.start = start
            self.duration = duration
        }
    }

    /// One seek.
    public struct Seek: Sendable, Hashable, Codable {
        /// Media time the seek left.
        public var from: Double
        /// Media time the seek went to.
        public var to: Double
        /// Clock time the seek was asked for.
        public var start: Double
        /// Seconds waited for data at the target (0 when it was loaded); so far, while still waiting.
        public var latency: Double

        /// Creates a seek record.
        public init(from: Double, to: Double, start: Double, latency: Double) {
            self.from = from
            self.to = to
            self.start = start
            self.latency = latency
        }
    }

    /// Whether playback ever started.
    public var started: Bool = false
    /// Seconds of initial loading before playback started (so far, if it never did).
    public var startupDelay: Double = 0
    /// Number of stalls.
    public var stallCount: Int { stalls.count }
    /// Seconds spent stalled in total.
    public var stallTime: Double = 0
    /// Stall time over stall time plus played wall time; `nil` when playback never started (a session
    /// that never played is not a perfect one), 0 once started before anything played or stalled.
    public var rebufferRatio: Double? {
        guard started else { return nil }
        let total = stallTime + playedWallTime
        return total > 0 ? stallTime / total : 0
    }
    /// Every stall, in order.
    public var stalls: [Stall] = []
    /// Every seek made after playback started, in order (a seek during startup only moves the start).
    public var seeks: [Seek] = []
    /// Seconds spent waiting for seeks in total.
    public var seekWaitTime: Double = 0
    /// Media seconds played (the distance the playhead moved while playing).
    public var played: Double = 0
    /// Clock seconds spent playing.
    public var playedWallTime: Double = 0
    /// Clock seconds spent paused.
    public var pausedTime: Double = 0
    /// Clock seconds spent ended or failed.
    public var idleTime: Double = 0
    /// Clock seconds from the player's creation to its latest event.
    public var elapsed: Double = 0
    /// Whether the playhead is at the end of the media (the session ended).
    public var ended: Bool = false
    /// Why playback failed, when it did.
    public var failure: String?

    /// Creates an empty report.
    public init() {}
}
