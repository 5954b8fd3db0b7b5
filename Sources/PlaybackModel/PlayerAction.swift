/// What a `Player` event asks its caller to do or tells it happened. Actions are returned in the order
/// they happened; `PlayerEvent`s carry the clock time of each.
public enum PlayerAction: Sendable, Hashable {
    /// Load media from this media time on. Also sent while already loading when the position needed jumps
    /// (a seek outside the loaded ranges).
    case startLoading(from: Double)
    /// Stop loading: the forward target is reached, the stream ended, or playback ended or failed.
    case stopLoading
    /// Playback started for the first time, after `startupDelay` seconds of initial loading.
    case started(startupDelay: Double)
    /// A stall began at media time `position`.
    case stallBegan(position: Double)
    /// The stall at `position` ended after `duration` seconds (playback resumed, or was paused, seeked away,
    /// ended or failed).
    case stallEnded(position: Double, duration: Double)
    /// A seek from `from` to `to` began; it completes at once when `to` is loaded.
    case seekStarted(from: Double, to: Double)
    /// The seek completed after `latency` seconds of waiting for data.
    case seekCompleted(from: Double, to: Double, latency: Double)
    /// After the end of stream, the playhead jumped over a hole in the loaded data that can never fill.
    case skippedGap(TimeRange)
    /// The playhead reached the end of the media at `position`.
    case ended(position: Double)
    /// Playback failed for `reason`.
    case failed(reason: String)
}
