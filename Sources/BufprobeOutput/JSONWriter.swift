import Foundation

/// Encodes `Encodable` values as JSON text exactly as Foundation's `JSONEncoder` does with `JSONOutput`'s
/// settings (snake_case keys, pretty-printed, sorted keys, slashes unescaped, non-finite numbers as the
/// strings "inf", "-inf" and "nan"), byte for byte, through the same `Codable` conformances.
///
/// Why not `JSONEncoder`: for every type it meets it asks the Swift runtime whether the type conforms to
/// Foundation's marker protocols, and each first such question scans every conformance record of the
/// executable (about 8,500 in bufprobe's): about 15 million instructions for one `probe --json`, more
/// than the rest of a short probe. This encoder asks nothing of the runtime: numbers, strings and
/// booleans arrive through the containers' typed overloads, the generic paths recognise them by their
/// metatype, and dictionaries by their coding-key type (`DictionaryKeyType`).
///
/// What it does not special-case, unlike `JSONEncoder`: `Date`, `Data`, `URL` and `Decimal` (bufprobe's
/// documents hold none; they would be written through their own `Codable` conformances).
/// `JSONWriterTests` compares both encoders on every document the commands write and on generated values.
enum JSONWriter {
    /// The JSON text of `value`.
    /// - Throws: `EncodingError.invalidValue` when `value` encodes nothing at all, as `JSONEncoder` does.
    static func string<T: Encodable>(_ value: T) throws -> String {
        let encoder = NodeEncoder(node: JSONNode(), codingPath: [], keys: KeyConverter())
        try encoder.encodeValue(value)
        guard let root = encoder.node.content else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
        var text = ""
        write(root, indent: 0, to: &text)
        return text
    }

    // Pretty-printing as Foundation's writer: two spaces per level, " : " after a key, and an empty array
    // or object still opens a line of its own ("[\n\n]").
    private static func write(_ content: JSONNode.Content, indent: Int, to text: inout String) {
        switch content {
        case .literal(let literal):
            text += literal
        case .array(let elements):
            text += "[\n"
            for (index, element) in elements.enumerated() {
                if index > 0 { text += ",\n" }
                text += String(repeating: " ", count: (indent + 1) * 2)
                // A value that encoded nothing is an empty object, as in Foundation.
                write(element.content ?? .object([:]), indent: indent + 1, to: &text)
            }
            text += "\n" + String(repeating: " ", count: indent * 2) + "]"
        case .object(let members):
            text += "{\n"
            // Foundation sorts by the keys' UTF-8 bytes.
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (index, member) in sorted.enumerated() {
                if index > 0 { text += ",\n" }
                text += String(repeating: " ", count: (indent + 1) * 2)
                text += quoted(member.key)
                text += " : "
                write(member.value.content ?? .object([:]), indent: indent + 1, to: &text)
            }
            text += "\n" + String(repeating: " ", count: indent * 2) + "}"
        }
    }

    /// `string` as a JSON string literal, escaped as Foundation escapes it: the quote, the backslash, and
    /// C0 controls (`\b \f \n \r \t` by name, the others as `\u00xx`); everything else as it is.
    static func quoted(_ string: String) -> String {
        var out = "\""
        out.reserveCapacity(string.utf8.count + 2)
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\u{8}": out += "\\b"
            case "\u{C}": out += "\\f"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{0}"..."\u{F}": out += "\\u000" + String(scalar.value, radix: 16)
            case "\u{10}"..."\u{1F}": out += "\\u00" + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
        return out
    }

    /// A finite number as Foundation writes it (its `description` without a trailing ".0"); a non-finite
    /// one as the string JSONOutput names it with.
    static func number<F: BinaryFloatingPoint & CustomStringConvertible>(_ value: F) -> String {
        if value.isNaN { return "\"nan\"" }
        if value.isInfinite { return value < 0 ? "\"-inf\"" : "\"inf\"" }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}
