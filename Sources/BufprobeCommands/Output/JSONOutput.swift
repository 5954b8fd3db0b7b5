package import Foundation

/// The one way bufprobe writes JSON: snake_case keys from Swift property names in sorted order (Foundation
/// on Linux would otherwise emit them in hash order, different on every run), pretty-printed, slashes
/// unescaped, and seconds rounded to the microsecond where reports build their values.
package enum JSONOutput {
    /// Encodes `value` as a UTF-8 JSON string (no trailing newline).
    package static func string<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// A decoder matching `string(_:)`, for tests and tools that read bufprobe's JSON back.
    package static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }

    /// Rounds seconds to microseconds, as ffprobe prints them, so documents are stable across runs.
    package static func seconds(_ value: Double) -> Double { (value * 1_000_000).rounded() / 1_000_000 }
}
