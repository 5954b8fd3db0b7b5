/// One `--style` value, `LAYER=GLYPH`, `LAYER=:COLOR` or `LAYER=GLYPH:COLOR` (such as `buffer==:blue`,
/// `progress=:#ff8800`, `stall=!:196`, `track=:none`), parsed with a one-sentence error.
public struct LayerStyleSpec: Sendable, Hashable {
    /// What the value does to the layer's color.
    public enum ColorSetting: Sendable, Hashable {
        /// Leave the color as it is.
        case keep
        /// Use the terminal's default color (`none` or `default`).
        case off
        /// Use this color.
        case set(TerminalColor)
    }

    /// The layer the value changes.
    public var layer: BarLayer
    /// The new glyph, or nil to keep it.
    public var glyph: Character?
    /// The new color setting.
    public var color: ColorSetting

    /// Creates a value directly.
    public init(layer: BarLayer, glyph: Character? = nil, color: ColorSetting = .keep) {
        self.layer = layer
        self.glyph = glyph
        self.color = color
    }

    /// Parses `LAYER=SPEC`. SPEC's first character is the glyph unless SPEC starts with `:` followed by
    /// more text (then it is only a color); `::red` sets the glyph `:`.
    public init(parsing text: String) throws(ProgressStyleError) {
        guard let equals = text.firstIndex(of: "=") else { throw .missingLayer(text) }
        layer = try BarLayer(parsing: String(text[..<equals]))
        let spec = text[text.index(after: equals)...]
        glyph = nil
        color = .keep
        guard let first = spec.first else { throw .badGlyph("", layer: layer) }
        var rest = spec.dropFirst()
        if first == ":" && !rest.isEmpty && rest.first != ":" {
            rest = spec[...]
        } else {
            guard TerminalWidth.columns(of: String(first)) == 1, !first.unicodeScalars.contains(where: TerminalWidth.isControl)
            else { throw .badGlyph(String(first), layer: layer) }
            glyph = first
        }
        if rest.isEmpty { return }
        guard rest.first == ":" else { throw .badGlyph(String(spec.prefix(while: { $0 != ":" })), layer: layer) }
        let colorText = String(rest.dropFirst())
        switch colorText.lowercased() {
        case "none", "default": color = .off
        default: color = .set(try TerminalColor(parsing: colorText))
        }
    }
}
