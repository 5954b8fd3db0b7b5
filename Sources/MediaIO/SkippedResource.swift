/// A resource an input leads to (a variant playlist, a segment, a key) that bufprobe did not read: a
/// protocol off the whitelist, or a peer that sent nothing within its share of the timeout.
public struct SkippedResource: Sendable, Hashable {
    /// Why the resource was not read.
    public enum Kind: Sendable, Hashable {
        /// Its protocol is off the whitelist: bufprobe refused it.
        case refused
        /// It sent nothing within its share of the timeout.
        case silent
        /// Opening it failed (an HTTP error, a refused connection): FFmpeg went on without it.
        case failed
    }

    /// The resource's URL as the playlist resolved it.
    public var url: String
    /// Why, completing "which ..." (`sent nothing within 5 s`).
    public var why: String
    /// Which kind of skip.
    public var kind: Kind

    /// Creates a record.
    public init(url: String, why: String, kind: Kind) {
        self.url = url
        self.why = why
        self.kind = kind
    }

    /// One warning sentence naming the input and the resource.
    public func sentence(for input: String) -> String {
        "\(input) leads to \(url), which \(why); it was skipped, not read."
    }

    /// The error sentence when `input` could not be opened and this was the first resource skipped.
    public func openFailure(for input: String) -> String {
        "\(input) could not be opened: it leads to \(url), which \(why), so it was skipped, and nothing else could be played."
    }
}
