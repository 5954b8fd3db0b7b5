/// A style value that cannot be used; its description is one sentence that says what to write instead.
public enum ProgressStyleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text is not a color name, a 256-color index or `#rrggbb`.
    case unknownColor(String)
    /// A numeric color outside 0...255.
    case colorIndexOutOfRange(String)
    /// A `#` color that is not three or six hex digits.
    case badHexColor(String)
    /// A glyph that is empty, several characters, a control character, or not one column wide.
    case badGlyph(String, layer: BarLayer)
    /// A layer name that does not exist.
    case unknownLayer(String)
    /// A `--style` value without `LAYER=`.
    case missingLayer(String)

    /// The sentence shown to the user.
    public var description: String {
        switch self {
        case .unknownColor(let text):
            "'\(text)' is not a color: use a name (red, bright-blue, gray, default), a 256-color index 0-255, or #rrggbb."
        case .colorIndexOutOfRange(let text):
            "color index \(text) is out of range: 256-color indexes go from 0 to 255."
        case .badHexColor(let text):
            "'\(text)' is not a hex color: write # followed by 3 or 6 hex digits, such as #f80 or #ff8800."
        case .badGlyph(let text, let layer):
            "the \(layer.rawValue) glyph '\(text)' is not one character one terminal column wide; use a single character such as '#' or '█'."
        case .unknownLayer(let text):
            "'\(text)' is not a bar layer: use one of \(BarLayer.allCases.map(\.rawValue).joined(separator: ", "))."
        case .missingLayer(let text):
            "'\(text)' names no layer: write LAYER=GLYPH, LAYER=:COLOR or LAYER=GLYPH:COLOR, such as buffer==:blue."
        }
    }
}
