/// A value in a simulation script or option that is not a valid quantity, such as `3 parsecs` given as a
/// duration. Its description is one sentence naming the text and the accepted units.
public struct UnitError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of quantity that was expected.
    public enum Quantity: String, Sendable, Hashable {
        /// A span of time: `ms s m h`, `mm:ss`, or a plain number of seconds.
        case duration
        /// A bit rate: `bit kbit Mbit Gbit` (per second), `B/s kB/s MB/s GB/s`, or plain bits per second.
        case bitRate
        /// A plain positive number, such as a playback rate.
        case number
    }

    /// What the text should have been.
    public var quantity: Quantity
    /// The text as written.
    public var text: String
    /// Why it was rejected, when more precise than "not a valid quantity" (e.g. "must not be negative").
    public var reason: String?

    /// Creates an error for `text`, which is not a valid `quantity`.
    public init(quantity: Quantity, text: String, reason: String? = nil) {
        self.quantity = quantity
        self.text = text
        self.reason = reason
    }

    /// One sentence: the text, what is wrong, and what is accepted.
    public var description: String {
        let accepted = switch quantity {
        case .duration: "a duration such as 250ms, 1.5s, 2m, 1h or 1:30"
        case .bitRate: "a bit rate such as 500kbit, 2Mbit, 1Gbit, 250kB/s or 1MB/s"
        case .number: "a number such as 1.5"
        }
        if let reason { return "'\(text)' \(reason); expected \(accepted)." }
        return "'\(text)' is not \(accepted)."
    }
}
