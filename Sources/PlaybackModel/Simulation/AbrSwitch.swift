/// A change of variant between two consecutive segment requests.
public struct AbrSwitch: Sendable, Hashable {
    /// Session time of the request at the new variant, seconds.
    public var time: Double
    /// The segment requested (index in the playlist).
    public var segment: Int
    /// Ascending ladder index before.
    public var from: Int
    /// Ascending ladder index after.
    public var to: Int
    /// The rule's reason.
    public var reason: String

    /// Creates a switch.
    public init(time: Double, segment: Int, from: Int, to: Int, reason: String) {
        self.time = time
        self.segment = segment
        self.from = from
        self.to = to
        self.reason = reason
    }
}
