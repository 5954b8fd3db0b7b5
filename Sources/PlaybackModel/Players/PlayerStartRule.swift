/// A player's own rule for when playback starts and resumes, where no threshold on the seconds buffered
/// ahead states it (a buffering percentage of a queue's limits, a delay counted in bytes or in time since
/// the first data): `BufferPolicy.KeepUpRule.player` carries one.
///
/// The player state machine asks it whenever `PlaybackItem.isPlaybackLikelyToKeepUp` is read with data at
/// the playhead and not everything to the end loaded (then playback can always go on). It sees the whole
/// item: the loaded ranges, the playhead, whether it is rebuffering and after how many stalls, the policy's
/// thresholds and the network estimate. A gap is still jumped with the policy's thresholds
/// (`PlaybackItem.keepUpThreshold`).
public protocol PlayerStartRule: Sendable {
    /// The rule's name, for reports and equality: the player's CLI name.
    var name: String { get }
    /// The rule's parameters by name (snake_case); with `name`, what makes two rules equal.
    var parameters: [String: Double] { get }
    /// Whether playback may start (resume, when `item.isRebuffering`) with `bufferedAhead` seconds loaded
    /// ahead of the playhead (more than 0, not through the end).
    func isLikelyToKeepUp(_ item: PlaybackItem, bufferedAhead: Double) -> Bool
}

/// A `PlayerStartRule` as a value of `BufferPolicy.KeepUpRule.player`: equal when the rules have the same
/// name and parameters.
public struct PlayerStart: Sendable, Hashable {
    /// The rule.
    public var rule: any PlayerStartRule

    /// Wraps `rule`.
    public init(_ rule: any PlayerStartRule) {
        self.rule = rule
    }

    /// Same name and parameters.
    public static func == (lhs: PlayerStart, rhs: PlayerStart) -> Bool {
        lhs.rule.name == rhs.rule.name && lhs.rule.parameters == rhs.rule.parameters
    }

    /// Hashes the name and parameters.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rule.name)
        hasher.combine(rule.parameters)
    }
}
