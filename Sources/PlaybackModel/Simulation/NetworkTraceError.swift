/// A bandwidth trace that cannot be used: no rows, a row that is not numbers, time going backwards.
public struct NetworkTraceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line (two-column text) or step (JSON list) at fault, when one is.
    public var line: Int?
    /// What is wrong, as a sentence fragment.
    public var reason: String

    /// Creates an error.
    public init(line: Int?, reason: String) {
        self.line = line
        self.reason = reason
    }

    /// One sentence.
    public var description: String { "the bandwidth trace is not usable: \(reason)." }
}
