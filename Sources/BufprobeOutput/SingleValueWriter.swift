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
