/// A resource an input leads to (a variant playlist, a segment, a key) that bufprobe did not read: a
/// protocol off the whitelist, or a peer that sent nothing within its share of the timeout.
public struct SkippedResource: Sendable, Hashable {
    /// The resource's URL as the playlist resolved it.
    public var url: String
    /// Why, completing "skipped because it ..." (`sent nothing within 5 s`).
    public var why: String

    /// Creates a record.
    public init(url: String, why: String) {
        self.url = url
        self.why = why
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
