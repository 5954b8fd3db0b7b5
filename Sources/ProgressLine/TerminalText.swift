/// The one rule for text from outside (a server's reason phrase, a playlist's URIs, a file's metadata)
/// on its way to a terminal: every C0 and C1 control character and DEL becomes a visible escape
/// (`\x1b`, `\x7f`, `\u{9b}`), so no byte from a file or a server can move the cursor, set the window
/// title, clear the screen or change colors. The output writers apply it to every sentence and text
/// report, the renderer to every title and label; bufprobe's own escape codes are added after it.
public enum TerminalText {
    /// `text` with every control character written as a visible escape; newlines are kept when
    /// `keepingNewlines` (a multi-line report), escaped otherwise (a one-line sentence or a title).
    public static func escaped(_ text: String, keepingNewlines: Bool = false) -> String {
        func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
            TerminalWidth.isControl(scalar) && !(keepingNewlines && scalar == "\n")
        }
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                out.append(scalar)
                continue
            }
            out.append(contentsOf: visible(scalar).unicodeScalars)
        }
        return String(out)
    }

    /// `\x1b` for C0 and DEL, `\u{9b}` for C1 (two lowercase hex digits either way).
    static func visible(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16)
        let digits = hex.count < 2 ? "0" + hex : hex
        return scalar.value < 0x80 ? "\\x" + digits : "\\u{" + digits + "}"
    }
}
