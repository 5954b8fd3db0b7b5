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
