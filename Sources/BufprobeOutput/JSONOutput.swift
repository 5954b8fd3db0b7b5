package import PlaybackModel
package import Foundation

/// The one way bufprobe writes JSON: snake_case keys from Swift property names in sorted order (Foundation
/// on Linux would otherwise emit them in hash order, different on every run), pretty-printed, slashes
/// unescaped, and seconds rounded to the microsecond where reports build their values.
package enum JSONOutput {
    /// Loaded ranges as JSON pairs `[start, end]`, each rounded as every JSON time is.
    package static func pairs(_ ranges: TimeRanges) -> [[Double]] {
        ranges.ranges.map { [seconds($0.start), seconds($0.end)] }
    }

    /// Encodes `value` as a UTF-8 JSON string (no trailing newline): what `referenceEncoder()` writes,
    /// through `JSONWriter`, which gets there without Foundation's run-time protocol look-ups.
    package static func string<T: Encodable>(_ value: T) throws -> String {
        escapingC1(try JSONWriter.string(value))
    }

    /// Foundation's encoder with the settings `string(_:)` reproduces byte for byte: the reference the
    /// tests compare `JSONWriter` against.
    package static func referenceEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }

    /// DEL and the C1 controls (U+007F...U+009F) as `\u00XX`: the encoder escapes only C0, and a
    /// terminal in UTF-8 mode obeys a raw U+009B as CSI. Outside strings JSON is ASCII, so every such
    /// scalar is inside a string, where the escape means the same character.
    package static func escapingC1(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: { (0x7F...0x9F).contains($0.value) }) else { return json }
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if (0x7F...0x9F).contains(scalar.value) {
                out.append(contentsOf: "\\u00\(String(scalar.value, radix: 16))".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// A decoder matching `string(_:)`, for tests and tools that read bufprobe's JSON back: snake_case keys,
    /// and the words the encoder writes for numbers JSON has none for ("inf", "-inf", "nan": a player
    /// preset's whole back buffer is "inf").
    package static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }

    /// Rounds seconds to microseconds, as ffprobe prints them, so documents are stable across runs.
    package static func seconds(_ value: Double) -> Double { (value * 1_000_000).rounded() / 1_000_000 }
}
