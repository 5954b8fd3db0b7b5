/// The number-and-unit lexer shared by `Seconds`, `BitRate` and `Factor`: one grammar for every command
/// and for scripts. Spaces around the text and between number and unit are allowed.
enum UnitText {
    /// `text` without leading and trailing spaces and tabs.
    static func trim(_ text: String) -> Substring {
        let start = text.firstIndex { $0 != " " && $0 != "\t" } ?? text.endIndex
        let end = text.lastIndex { $0 != " " && $0 != "\t" }.map { text.index(after: $0) } ?? start
        return text[start..<max(start, end)]
    }

    /// Splits `12.5 Mbit/s` into the number `12.5` and the unit `Mbit/s`. The number is digits, a point,
    /// a leading sign and an exponent (`1e3`); the unit is the rest, spaces before it dropped.
    static func split(_ text: Substring) -> (number: Substring, unit: Substring) {
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if character.isASCII, character.isNumber || character == "." {
                index = next
            } else if (character == "-" || character == "+") && index == text.startIndex {
                index = next
            } else if character == "e" || character == "E", index > text.startIndex, next < text.endIndex,
                text[next].isASCII, text[next].isNumber || text[next] == "-" || text[next] == "+"
            {
                index = text.index(after: next)
            } else {
                break
            }
        }
        return (text[..<index], text[index...].drop { $0 == " " || $0 == "\t" })
    }

    /// The number of `text` (already split off its unit): finite and not negative, or a `UnitError`
    /// naming `original`.
    static func value(_ number: Substring, original: String, quantity: UnitError.Quantity) throws(UnitError) -> Double {
        guard !number.isEmpty, let value = Double(number), value.isFinite else {
            throw UnitError(quantity: quantity, text: original)
        }
        guard value >= 0 else { throw UnitError(quantity: quantity, text: original, reason: "must not be negative") }
        return value
    }

    /// `value` with at most `digits` decimals and no trailing zeros: `2`, `2.5`, `0.25`.
    static func trimZeros(_ value: Double, digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = Rounding.nearest(value * scale) / scale
        if rounded == Rounding.down(rounded), abs(rounded) < 0x1p62 { return "\(Int64(rounded))" }
        var text = "\(rounded)"
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
