/// The look of one layer: a glyph one column wide and an optional foreground color.
public struct LayerStyle: Sendable, Hashable {
    /// The character drawn in each cell of the layer.
    public var glyph: Character
    /// The foreground color; nil keeps the terminal's default.
    public var color: TerminalColor?

    /// Creates a layer look.
    public init(_ glyph: Character, _ color: TerminalColor? = nil) {
        self.glyph = glyph
        self.color = color
    }
}
