/// An event drawn at its media position on the bar (the scrubber's event markers).
public struct ProgressMarker: Sendable, Hashable {
    /// What the marker stands for; selects its glyph and color.
    public var kind: MarkerKind
    /// Media position in seconds.
    public var position: Double

    /// Creates a marker of `kind` at `position` seconds.
    public init(_ kind: MarkerKind, at position: Double) {
        self.kind = kind
        self.position = position
    }
}
