/// Terminal column arithmetic: a small wcwidth. East Asian Wide and Fullwidth characters take 2
/// columns, combining marks, format characters and Hangul medial/final jamo take 0, escape sequences
/// (CSI `ESC [ ... final`) take 0, everything else 1. Emoji presentation selectors are not modelled
/// (a text-style symbol followed by U+FE0F still counts 1), as with most wcwidth implementations.
public enum TerminalWidth {
    // East Asian Width W and F ranges (Unicode 15), coarse where whole blocks are wide.
    private static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0,
        0x23F3...0x23F3, 0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F,
        0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
        0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5,
        0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728,
        0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
        0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF,
        0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A,
        0x1F200...0x1F251, 0x1F260...0x1F265, 0x1F300...0x1F320, 0x1F32D...0x1F335,
        0x1F337...0x1F37C, 0x1F37E...0x1F393, 0x1F3A0...0x1F3CA, 0x1F3CF...0x1F3D3,
        0x1F3E0...0x1F3F0, 0x1F3F4...0x1F3F4, 0x1F3F8...0x1F43E, 0x1F440...0x1F440,
        0x1F442...0x1F4FC, 0x1F4FF...0x1F53D, 0x1F54B...0x1F54E, 0x1F550...0x1F567,
        0x1F57A...0x1F57A, 0x1F595...0x1F596, 0x1F5A4...0x1F5A4, 0x1F5FB...0x1F64F,
        0x1F680...0x1F6C5, 0x1F6CC...0x1F6CC, 0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6D7,
        0x1F6DC...0x1F6DF, 0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC, 0x1F7E0...0x1F7EB,
        0x1F7F0...0x1F7F0, 0x1F90C...0x1F93A, 0x1F93C...0x1F945, 0x1F947...0x1F9FF,
        0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    /// Columns one scalar occupies: 0, 1 or 2.
    public static func columns(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value >= 0x20 ? 1 : 0 }
        if value < 0xA0 { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        if (0x1160...0x11FF).contains(value) || value == 0x200B { return 0 }
        if value < 0x1100 { return 1 }
        var low = 0
        var high = wide.count - 1
        while low <= high {
            let mid = (low + high) / 2
            if wide[mid].upperBound < value {
                low = mid + 1
            } else if wide[mid].lowerBound > value {
                high = mid - 1
            } else {
                return 2
            }
        }
        return 1
    }

    /// Columns a character (grapheme cluster) occupies: the sum over its scalars, as terminals do.
    public static func columns(of character: Character) -> Int {
        character.unicodeScalars.reduce(0) { $0 + columns(of: $1) }
    }

    /// Columns `text` occupies on screen; CSI escape sequences count 0.
    public static func columns(of text: String) -> Int {
        var total = 0
        var inEscape = false
        var sawBracket = false
        for scalar in text.unicodeScalars {
            if inEscape {
                if !sawBracket {
                    sawBracket = scalar == "["
                    if !sawBracket { inEscape = false }
                } else if (0x40...0x7E).contains(scalar.value) {
                    inEscape = false
                }
                continue
            }
            if scalar == "\u{1B}" {
                inEscape = true
                sawBracket = false
                continue
            }
            total += columns(of: scalar)
        }
        return total
    }

    /// Whether a scalar is a C0 or C1 control character (never drawn, never passed to the terminal).
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value)
    }

    /// `text` (no escape codes) made exactly `width` columns: padded with spaces, or cut and ended with
    /// `ellipsis` when given. A wide character that would straddle the edge is replaced by a space.
    public static func fit(_ text: String, width: Int, ellipsis: Character? = nil) -> String {
        guard width > 0 else { return "" }
        let total = columns(of: text)
        if total <= width { return text + String(repeating: " ", count: width - total) }
        let mark = ellipsis.map { columns(of: $0) } ?? 0
        let room = max(0, width - mark)
        var result = ""
        var used = 0
        for character in text {
            let w = columns(of: character)
            if used + w > room { break }
            result.append(character)
            used += w
        }
        if let ellipsis, mark <= width {
            result.append(ellipsis)
            used += mark
        }
        return result + String(repeating: " ", count: max(0, width - used))
    }

    /// A title (no escape codes) made exactly `width` columns. A URL or path is cut in the middle so
    /// the host and the last path component stay (`127.0.0.1:8080/…/index.m3u8`): first the scheme
    /// goes, then the middle of the path; when even the host and the last component do not fit, the
    /// last component gets up to two thirds of the room. Other text is cut from the right (`fit`).
    public static func fitTitle(_ text: String, width: Int, ellipsis: Character) -> String {
        guard width > 0 else { return "" }
        if columns(of: text) <= width { return fit(text, width: width) }
        var rest = Substring(text)
        if let scheme = text.firstRange(of: "://") { rest = text[scheme.upperBound...] }
        if columns(of: String(rest)) <= width { return fit(String(rest), width: width) }
        guard let lastSlash = rest.lastIndex(of: "/") else { return fit(String(rest), width: width, ellipsis: ellipsis) }
        let head = rest[..<(rest.firstIndex(of: "/") ?? rest.endIndex)]
        let room = width - columns(of: ellipsis)
        guard room > 1 else { return fit(String(rest), width: width, ellipsis: ellipsis) }
        let headWant = columns(of: String(head))
        let tailWant = columns(of: String(rest[lastSlash...]))
        let tailRoom = headWant + tailWant <= room ? room - headWant : min(tailWant, max(room - room / 3, room - headWant))
        let start = prefix(rest, columns: room - tailRoom)
        let end = suffix(rest, columns: tailRoom)
        return fit(start + String(ellipsis) + end, width: width)
    }

    /// The longest start of `text` that takes at most `columns` columns.
    private static func prefix(_ text: Substring, columns limit: Int) -> String {
        var result = ""
        var used = 0
        for character in text {
            let w = columns(of: character)
            if used + w > limit { break }
            result.append(character)
            used += w
        }
        return result
    }

    /// The longest end of `text` that takes at most `columns` columns.
    private static func suffix(_ text: Substring, columns limit: Int) -> String {
        var result: [Character] = []
        var used = 0
        for character in text.reversed() {
            let w = columns(of: character)
            if used + w > limit { break }
            result.append(character)
            used += w
        }
        return String(result.reversed())
    }

    /// `text` with control characters written as visible escapes (`TerminalText.escaped`), so titles
    /// from media metadata cannot move the cursor or inject escape codes.
    public static func sanitized(_ text: String) -> String {
        TerminalText.escaped(text)
    }
}
