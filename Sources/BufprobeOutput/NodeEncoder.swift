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
