/// A value on the command line or in a simulation script that is not a valid quantity, such as `3 parsecs`
/// given as a duration. Its description is one sentence naming the text and the accepted forms; the
/// command line puts the option's name in front, a script its `file:line: field`.
public struct UnitError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of quantity that was expected.
    public enum Quantity: String, Sendable, Hashable {
        /// A span of time (`Seconds`).
        case duration
        /// A rate in bits or bytes per second (`BitRate`, `ByteRate`).
        case bitRate
        /// A multiple such as a playback rate (`Factor`).
        case factor
    }

    /// What the text should have been.
    public var quantity: Quantity
    /// The text as written.
    public var text: String
    /// Why it was rejected, when more precise than "not a valid quantity" (e.g. "must not be negative").
    public var reason: String?
    /// What to write instead, when the text is valid but almost surely not what was meant (`did you mean
    /// 150k?`); it replaces the list of accepted forms.
    public var suggestion: String?

    /// Creates an error for `text`, which is not a valid `quantity`.
    public init(quantity: Quantity, text: String, reason: String? = nil, suggestion: String? = nil) {
        self.quantity = quantity
        self.text = text
        self.reason = reason
        self.suggestion = suggestion
    }

    /// The accepted forms of `quantity`, as the sentence ends.
    public static func accepted(_ quantity: Quantity) -> String {
        switch quantity {
        case .duration: "a duration such as 250ms, 1.5s, 2m, 1h, 1:30 or plain seconds"
        case .bitRate: "a rate such as 400k (bit/s), 500kbit, 2Mbit, 2Mbps or 250kB/s"
        case .factor: "a number such as 1.5 or 2x"
        }
    }

    /// One sentence: the text, what is wrong, and what is accepted.
    public var description: String {
        let accepted = Self.accepted(quantity)
        if let reason, let suggestion { return "'\(text)' \(reason); \(suggestion)" }
        if let reason { return "'\(text)' \(reason); expected \(accepted)." }
        return "'\(text)' is not \(accepted)."
    }
}
