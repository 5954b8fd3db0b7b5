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
