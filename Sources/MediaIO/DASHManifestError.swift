/// A DASH manifest that cannot be used, with what is wrong in it.
public struct DASHManifestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, completing "the manifest ...".
    public var reason: String
    /// The manifest's path, when known (set by the loader).
    public var location: String?

    /// Creates an error.
    public init(reason: String, location: String? = nil) {
        self.reason = reason
        self.location = location
    }

    /// One sentence: which manifest, what is wrong.
    public var description: String {
        "the DASH manifest \(location.map { "\($0) " } ?? "")\(reason)."
    }
}
