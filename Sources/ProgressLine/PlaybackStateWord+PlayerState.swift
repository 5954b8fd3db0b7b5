package import PlaybackModel

extension PlaybackStateWord {
    /// The word the live line shows for the player's state: the one mapping for every command, exhaustive
    /// so that a new state cannot fall back to a wrong word silently.
    package init(_ state: PlayerState) {
        switch state {
        case .loading: self = .loading
        case .playing: self = .playing
        case .paused: self = .paused
        case .stalled: self = .stalled
        case .seeking: self = .seeking
        case .ended: self = .ended
        case .failed: self = .failed
        }
    }
}
