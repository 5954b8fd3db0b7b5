/// The input itself could not be read or is not an HLS playlist: `validate` exits 2 with this sentence.
public struct ValidationFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// One sentence naming the input: "stream.m3u8 cannot be read (check the path and permissions)."
    public var description: String

    /// A failure with its sentence.
    public init(_ description: String) { self.description = description }
}
