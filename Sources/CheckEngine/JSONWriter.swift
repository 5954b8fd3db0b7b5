// Over 400 lines on purpose: one encoder, whose keyed, unkeyed and single-value containers share private
// state and must stay byte-identical to JSONEncoder; split, they would need that state made internal.
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

/// One value of the document being built: empty until something is encoded into it.
final class JSONNode {
    /// What the node holds.
    enum Content {
        /// A number, string, boolean or `null`, already as JSON text.
        case literal(String)
        /// Elements in order.
        case array([JSONNode])
        /// Members by key (written sorted).
        case object([String: JSONNode])
    }

    var content: Content?

    /// Makes the node an object, keeping the members of one it already is (a second keyed container on the
    /// same encoder adds to the first, as in Foundation).
    func becomeObject() {
        if case .object = content { return }
        content = .object([:])
    }

    /// Makes the node an array, keeping the elements it already has.
    func becomeArray() {
        if case .array = content { return }
        content = .array([])
    }

    /// Sets the member `key` to a new empty node and returns it.
    func member(_ key: String) -> JSONNode {
        let child = JSONNode()
        guard case .object(var members) = content else { return child }
        content = nil  // so the dictionary is uniquely referenced while it changes
        members[key] = child
        content = .object(members)
        return child
    }

    /// Appends a new empty node and returns it.
    func appendElement() -> JSONNode {
        let child = JSONNode()
        guard case .array(var elements) = content else { return child }
        content = nil
        elements.append(child)
        content = .array(elements)
        return child
    }

    /// The number of elements of an array node.
    var elementCount: Int {
        if case .array(let elements) = content { return elements.count }
        return 0
    }
}

/// Foundation's `convertToSnakeCase`, remembered per key for the document (reports repeat the same keys
/// in every element of an array).
final class KeyConverter {
    private var converted: [String: String] = [:]

    func snakeCase(_ key: String) -> String {
        if let known = converted[key] { return known }
        let result = Self.convert(key)
        converted[key] = result
        return result
    }

    /// Words start at an uppercase letter; a run of uppercase letters followed by lowercase ones is a word
    /// of its own up to the last capital ("HTTPStatus" -> "h_ttp_status", as Foundation has it); each word
    /// is lowercased and the words are joined with "_". The first character never starts a word.
    static func convert(_ key: String) -> String {
        guard !key.isEmpty else { return key }
        var words: [Range<String.Index>] = []
        var wordStart = key.startIndex
        var searchRange = key.index(after: wordStart)..<key.endIndex
        while let upper = key.rangeOfCharacter(from: .uppercaseLetters, options: [], range: searchRange) {
            words.append(wordStart..<upper.lowerBound)
            searchRange = upper.lowerBound..<searchRange.upperBound
            guard let lower = key.rangeOfCharacter(from: .lowercaseLetters, options: [], range: searchRange) else {
                wordStart = searchRange.lowerBound
                break
            }
            let afterCapital = key.index(after: upper.lowerBound)
            if lower.lowerBound == afterCapital {
                wordStart = upper.lowerBound
            } else {
                let beforeLower = key.index(before: lower.lowerBound)
                words.append(upper.lowerBound..<beforeLower)
                wordStart = beforeLower
            }
            searchRange = lower.upperBound..<searchRange.upperBound
        }
        words.append(wordStart..<searchRange.upperBound)
        return words.map { key[$0].lowercased() }.joined(separator: "_")
    }
}

/// The `Encoder` every value of the document is encoded through, writing into `node`.
struct NodeEncoder: Encoder {
    let node: JSONNode
    let codingPath: [any CodingKey]
    let keys: KeyConverter
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.becomeObject()
        return KeyedEncodingContainer(KeyedWriter<Key>(node: node, codingPath: codingPath, keys: keys))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.becomeArray()
        return UnkeyedWriter(node: node, codingPath: codingPath, keys: keys)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueWriter(node: node, codingPath: codingPath, keys: keys)
    }

    /// Encodes `value` into `node`: the scalar types directly, recognised by their metatype (a pointer
    /// comparison; a cast would ask the runtime), anything else through its own `encode(to:)`.
    func encodeValue<T: Encodable>(_ value: T) throws {
        if let literal = Self.literal(value) {
            node.content = .literal(literal)
        } else {
            try value.encode(to: self)
        }
    }

    /// The JSON text of a number, string or boolean; `nil` for every other type.
    private static func literal<T>(_ value: T) -> String? {
        if T.self == String.self { return JSONWriter.quoted(unsafeBitCast(value, to: String.self)) }
        if T.self == Double.self { return JSONWriter.number(unsafeBitCast(value, to: Double.self)) }
        if T.self == Int.self { return String(unsafeBitCast(value, to: Int.self)) }
        if T.self == Bool.self { return unsafeBitCast(value, to: Bool.self) ? "true" : "false" }
        if T.self == Int64.self { return String(unsafeBitCast(value, to: Int64.self)) }
        if T.self == Float.self { return JSONWriter.number(unsafeBitCast(value, to: Float.self)) }
        if T.self == Int32.self { return String(unsafeBitCast(value, to: Int32.self)) }
        if T.self == UInt64.self { return String(unsafeBitCast(value, to: UInt64.self)) }
        if T.self == UInt.self { return String(unsafeBitCast(value, to: UInt.self)) }
        if T.self == UInt32.self { return String(unsafeBitCast(value, to: UInt32.self)) }
        if T.self == Int16.self { return String(unsafeBitCast(value, to: Int16.self)) }
        if T.self == UInt16.self { return String(unsafeBitCast(value, to: UInt16.self)) }
        if T.self == Int8.self { return String(unsafeBitCast(value, to: Int8.self)) }
        if T.self == UInt8.self { return String(unsafeBitCast(value, to: UInt8.self)) }
        return nil
    }
}

/// The coding-key type the standard library's `Dictionary` encodes its keys with, found once by letting a
/// dictionary encode itself: Foundation writes a string-keyed dictionary's keys as they are, and this is
/// how the keyed container tells them from property names without asking the runtime about protocols.
enum DictionaryKeyType {
    static let identifier: ObjectIdentifier? = {
        let probe = KeyTypeProbe()
        try? ["": 0].encode(to: probe)
        return probe.box.identifier
    }()

    private final class Box: @unchecked Sendable {
        var identifier: ObjectIdentifier?
    }

    private struct KeyTypeProbe: Encoder {
        let box = Box()
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            box.identifier = ObjectIdentifier(type)
            // Not a KeyedWriter: its key names would read `identifier` while it is being initialised.
            return KeyedEncodingContainer(Discard<Key>())
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            UnkeyedWriter(node: JSONNode(), codingPath: [], keys: KeyConverter())
        }

        /// Accepts the probe's one entry and keeps nothing.
        private struct Discard<Key: CodingKey>: KeyedEncodingContainerProtocol {
            var codingPath: [any CodingKey] { [] }
            mutating func encodeNil(forKey key: Key) throws {}
            mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {}
            mutating func nestedContainer<NestedKey: CodingKey>(
                keyedBy keyType: NestedKey.Type, forKey key: Key
            ) -> KeyedEncodingContainer<NestedKey> {
                KeyedEncodingContainer(Discard<NestedKey>())
            }
            mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
                UnkeyedWriter(node: JSONNode(), codingPath: [], keys: KeyConverter())
            }
            mutating func superEncoder() -> any Encoder { KeyTypeProbe() }
            mutating func superEncoder(forKey key: Key) -> any Encoder { KeyTypeProbe() }
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            SingleValueWriter(node: JSONNode(), codingPath: [], keys: KeyConverter())
        }
    }
}

/// The keyed container: an object's members, keys converted to snake_case.
struct KeyedWriter<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: JSONNode
    let codingPath: [any CodingKey]
    let keys: KeyConverter

    // A dictionary's keys are written as they are; property names (and every other key) in snake_case.
    private func name(_ key: Key) -> String {
        ObjectIdentifier(Key.self) == DictionaryKeyType.identifier ? key.stringValue : keys.snakeCase(key.stringValue)
    }

    private func child(_ key: Key) -> NodeEncoder {
        NodeEncoder(node: node.member(name(key)), codingPath: codingPath + [key], keys: keys)
    }

    private func set(_ literal: String, _ key: Key) { node.member(name(key)).content = .literal(literal) }

    mutating func encodeNil(forKey key: Key) throws { set("null", key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(value ? "true" : "false", key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(JSONWriter.quoted(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(JSONWriter.number(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(JSONWriter.number(value), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(String(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(String(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(String(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(String(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(String(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(String(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(String(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(String(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(String(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(String(value), key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try child(key).encodeValue(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        child(key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { child(key).unkeyedContainer() }

    // Foundation names the super encoder's member "super".
    mutating func superEncoder() -> any Encoder {
        NodeEncoder(node: node.member("super"), codingPath: codingPath, keys: keys)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder { child(key) }
}

/// The unkeyed container: an array's elements in order.
struct UnkeyedWriter: UnkeyedEncodingContainer {
    let node: JSONNode
    let codingPath: [any CodingKey]
    let keys: KeyConverter
    var count: Int { node.elementCount }

    private func append(_ literal: String) { node.appendElement().content = .literal(literal) }
    private func next() -> NodeEncoder { NodeEncoder(node: node.appendElement(), codingPath: codingPath, keys: keys) }

    mutating func encodeNil() throws { append("null") }
    mutating func encode(_ value: Bool) throws { append(value ? "true" : "false") }
    mutating func encode(_ value: String) throws { append(JSONWriter.quoted(value)) }
    mutating func encode(_ value: Double) throws { append(JSONWriter.number(value)) }
    mutating func encode(_ value: Float) throws { append(JSONWriter.number(value)) }
    mutating func encode(_ value: Int) throws { append(String(value)) }
    mutating func encode(_ value: Int8) throws { append(String(value)) }
    mutating func encode(_ value: Int16) throws { append(String(value)) }
    mutating func encode(_ value: Int32) throws { append(String(value)) }
    mutating func encode(_ value: Int64) throws { append(String(value)) }
    mutating func encode(_ value: UInt) throws { append(String(value)) }
    mutating func encode(_ value: UInt8) throws { append(String(value)) }
    mutating func encode(_ value: UInt16) throws { append(String(value)) }
    mutating func encode(_ value: UInt32) throws { append(String(value)) }
    mutating func encode(_ value: UInt64) throws { append(String(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { try next().encodeValue(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        next().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { next().unkeyedContainer() }

    mutating func superEncoder() -> any Encoder { next() }
}

/// The single-value container: the node itself.
struct SingleValueWriter: SingleValueEncodingContainer {
    let node: JSONNode
    let codingPath: [any CodingKey]
    let keys: KeyConverter

    mutating func encodeNil() throws { node.content = .literal("null") }
    mutating func encode(_ value: Bool) throws { node.content = .literal(value ? "true" : "false") }
    mutating func encode(_ value: String) throws { node.content = .literal(JSONWriter.quoted(value)) }
    mutating func encode(_ value: Double) throws { node.content = .literal(JSONWriter.number(value)) }
    mutating func encode(_ value: Float) throws { node.content = .literal(JSONWriter.number(value)) }
    mutating func encode(_ value: Int) throws { node.content = .literal(String(value)) }
    mutating func encode(_ value: Int8) throws { node.content = .literal(String(value)) }
    mutating func encode(_ value: Int16) throws { node.content = .literal(String(value)) }
    mutating func encode(_ value: Int32) throws { node.content = .literal(String(value)) }
    mutating func encode(_ value: Int64) throws { node.content = .literal(String(value)) }
    mutating func encode(_ value: UInt) throws { node.content = .literal(String(value)) }
    mutating func encode(_ value: UInt8) throws { node.content = .literal(String(value)) }
    mutating func encode(_ value: UInt16) throws { node.content = .literal(String(value)) }
    mutating func encode(_ value: UInt32) throws { node.content = .literal(String(value)) }
    mutating func encode(_ value: UInt64) throws { node.content = .literal(String(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try NodeEncoder(node: node, codingPath: codingPath, keys: keys).encodeValue(value)
    }
}
