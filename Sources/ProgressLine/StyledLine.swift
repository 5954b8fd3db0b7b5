/// Builds one line of text with the fewest SGR escape codes: a code only where the color changes, a
/// reset at the end; nothing at all when the color mode is none.
struct StyledLine {
    let mode: ColorMode
    private(set) var text = ""
    private var active: String?

    init(mode: ColorMode) { self.mode = mode }

    mutating func append(_ piece: String, color: TerminalColor? = nil, bold: Bool = false) {
        guard !piece.isEmpty else { return }
        var parameters: [String] = []
        if bold && mode != .none { parameters.append("1") }
        if let code = color?.foregroundParameters(in: mode) { parameters.append(code) }
        let wanted = parameters.isEmpty ? nil : parameters.joined(separator: ";")
        if wanted != active {
            if let wanted {
                text += "\u{1B}[0;\(wanted)m"
            } else {
                text += "\u{1B}[0m"
            }
            active = wanted
        }
        text += piece
    }

    mutating func append(_ character: Character, color: TerminalColor?) {
        append(String(character), color: color)
    }

    mutating func finished() -> String {
        if active != nil {
            text += "\u{1B}[0m"
            active = nil
        }
        return text
    }
}
