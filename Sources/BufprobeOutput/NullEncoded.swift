/// Marks an optional property of a JSON report so that `nil` is written as `null` instead of the key
/// being left out: scripts see every documented key in every document.
@propertyWrapper
package struct NullEncoded<Value: Codable & Sendable>: Codable, Sendable {
    /// The wrapped optional.
    package var wrappedValue: Value?

    /// Wraps `wrappedValue`.
    package init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    /// Decodes `null` as `nil`.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }

    /// Encodes `nil` as `null`.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension NullEncoded: Equatable where Value: Equatable {}
extension NullEncoded: Hashable where Value: Hashable {}

extension KeyedEncodingContainer {
    // Synthesized encoders call encodeIfPresent only for plain optionals; this overload makes a
    // wrapped nil reach `encodeNil` instead of vanishing.
    package mutating func encode<Value>(_ value: NullEncoded<Value>, forKey key: Key) throws {
        if let wrapped = value.wrappedValue { try encode(wrapped, forKey: key) } else { try encodeNil(forKey: key) }
    }
}

extension KeyedDecodingContainer {
    // A missing key decodes as nil too, so older documents still read.
    package func decode<Value>(_ type: NullEncoded<Value>.Type, forKey key: Key) throws -> NullEncoded<Value> {
        try decodeIfPresent(type, forKey: key) ?? NullEncoded(wrappedValue: nil)
    }
}
