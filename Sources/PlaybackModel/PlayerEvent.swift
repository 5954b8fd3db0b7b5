/// One observation of a `Player`: a periodic time tick, a state change, or an action, with the clock time
/// it happened at and the item as it was then (media time, progress, loaded ranges, flags).
public struct PlayerEvent: Sendable, Hashable {
    /// What was observed.
    public enum Kind: Sendable, Hashable {
        /// The periodic time observer fired (every `Player.timeObserverInterval` seconds of clock time).
        case periodic
        /// The state changed from `from` to the event's `state`.
        case stateChanged(from: PlayerState)
        /// The player returned this action.
        case action(PlayerAction)
    }

    /// What was observed.
    public var kind: Kind
    /// Clock time in seconds (the caller's clock, as passed to the player).
    public var clockTime: Double
    /// The player's state at that time.
    public var state: PlayerState
    /// The item at that time; `item.currentTime` is the media time.
    public var item: PlaybackItem

    /// Creates an event.
    public init(kind: Kind, clockTime: Double, state: PlayerState, item: PlaybackItem) {
        self.kind = kind
        self.clockTime = clockTime
        self.state = state
        self.item = item
    }

    /// The playhead, in media seconds.
    public var mediaTime: Double { item.currentTime }
}
