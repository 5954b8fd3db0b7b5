/// A variant chosen for the next segment, with the rule's reason in words.
public struct AbrDecision: Sendable, Hashable {
    /// Index into the ascending ladder.
    public var variant: Int
    /// Why, e.g. "throughput 1.2 Mbit/s x 0.9 allows 1 Mbit/s".
    public var reason: String

    /// Creates a decision.
    public init(variant: Int, reason: String) {
        self.variant = variant
        self.reason = reason
    }
}
