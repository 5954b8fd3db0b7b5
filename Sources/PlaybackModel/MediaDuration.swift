/// How long a piece of media is, as `AVPlayerItem.duration` distinguishes it: a finite length, not known
/// (yet), or unbounded (a live stream with no end).
public enum MediaDuration: Sendable, Hashable {
    /// A known length in seconds.
    case finite(Double)
    /// Not known, e.g. before the container header was read or when the container does not say.
    case unknown
    /// Live: the media has no end.
    case unbounded

    /// The length in seconds when finite, else `nil`.
    public var seconds: Double? {
        if case .finite(let seconds) = self { return seconds }
        return nil
    }
}
