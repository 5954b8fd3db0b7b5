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
