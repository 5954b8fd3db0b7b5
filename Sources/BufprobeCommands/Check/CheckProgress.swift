package import PlaybackModel

/// What a running check shows on the live line: the player as it is now, plus receiving figures.
package struct CheckProgress: Sendable {
    /// The URL or path.
    package var source: String
    /// Seconds since the check began.
    package var elapsed: Double
    /// The player; `nil` while connecting and opening.
    package var player: Player?
    /// Declared media duration, seconds.
    package var duration: Double?
    /// Bits per second received so far.
    package var throughput: Double?
    /// Media seconds received per wall second so far.
    package var realtimeFactor: Double?
}
