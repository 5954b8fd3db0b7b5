/// The word the line shows for what is happening; the player states plus `reading` (probe) and the
/// outcomes a final frame can show.
public enum PlaybackStateWord: String, Sendable, Hashable, CaseIterable {
    /// Waiting for the first data (startup delay), or opening an input.
    case loading
    /// Reading an input as fast as possible (probe).
    case reading
    /// The playhead advances.
    case playing
    /// The playhead is held on purpose.
    case paused
    /// The playhead reached the end of loaded data before the end of the media.
    case stalled
    /// Waiting for data after a seek (seek latency, not a stall).
    case seeking
    /// Playback reached the end of the media.
    case ended
    /// The work finished (probe read to the end).
    case done
    /// The work stopped on an error.
    case failed
    /// The user interrupted the work (Ctrl-C).
    case interrupted

    /// The capitalised word drawn on the line, such as `Playing`.
    public var label: String {
        let word = rawValue
        return word.prefix(1).uppercased() + word.dropFirst()
    }

    /// Whether the word describes a finished outcome rather than work in progress.
    public var isOutcome: Bool {
        switch self {
        case .ended, .done, .failed, .interrupted: true
        default: false
        }
    }
}
