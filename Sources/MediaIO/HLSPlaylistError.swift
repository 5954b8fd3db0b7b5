/// A playlist that is not valid HLS, naming the line at fault.
public struct HLSPlaylistError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line at fault, when one is.
    public var line: Int?
    /// What is wrong, completing "the playlist ...".
    public var reason: String
    /// The playlist's path or URL, when known (set by the loader).
    public var location: String?

    /// Creates an error.
    public init(line: Int?, reason: String, location: String? = nil) {
        self.line = line
        self.reason = reason
        self.location = location
    }

    /// One sentence: which playlist, which line, what is wrong.
    public var description: String {
        "the playlist \(location.map { "\($0) " } ?? "")\(reason)\(line.map { " (line \($0))" } ?? "")."
    }
}
