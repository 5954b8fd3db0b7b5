import Foundation
import PlaybackModel

/// Number formatting for people (text output only; JSON carries raw numbers).
package enum TextFormat {
    /// `12.345 s`, or `1:02:03.500` from one hour on.
    package static func seconds(_ value: Double) -> String {
        // Beyond 2^53 s no Int conversion below is exact, and past Int.max it would trap.
        guard value.isFinite, abs(value) < 0x1p53 else { return "unknown" }
        if abs(value) < 3600 { return String(format: "%.3f s", value) }
        let sign = value < 0 ? "-" : ""
        let total = abs(value)
        let hours = Int(total / 3600)
        let minutes = Int(total.truncatingRemainder(dividingBy: 3600) / 60)
        let rest = total.truncatingRemainder(dividingBy: 60)
        return sign + String(format: "%d:%02d:%06.3f", hours, minutes, rest)
    }

    /// `987 B`, `12.3 kB`, `4.56 MB`, `1.23 GB` (decimal units, as network rates are).
    package static func bytes(_ value: Int64) -> String {
        let v = Double(value)
        switch abs(v) {
        case ..<1000: return "\(value) B"
        case ..<1_000_000: return String(format: "%.1f kB", v / 1000)
        case ..<1_000_000_000: return String(format: "%.2f MB", v / 1_000_000)
        default: return String(format: "%.2f GB", v / 1_000_000_000)
        }
    }

    /// `800 bit/s`, `128 kbit/s`, `4.2 Mbit/s`: `BitRate`'s one format, for a plain number.
    package static func bitRate(_ bitsPerSecond: Double) -> String {
        BitRate(bitsPerSecond: bitsPerSecond).description
    }

    /// Ranges as `0.000–4.000 s, 7.000–10.000 s`.
    package static func ranges(_ pairs: [[Double]]) -> String {
        guard !pairs.isEmpty else { return "none" }
        return pairs.map { String(format: "%.3f–%.3f s", $0[0], $0[1]) }.joined(separator: ", ")
    }

    /// A number without trailing zeros, at most three decimals: `12`, `2.5`, `0.25`.
    package static func number(_ value: Double) -> String {
        var text = String(format: "%.3f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// A ratio as a percentage for sentences, to the hundredth without trailing zeros: `10%`, `2.5%`.
    package static func percent(_ ratio: Double) -> String {
        var text = String(format: "%.2f", ratio * 100)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text + "%"
    }

    /// `word` as one POSIX shell word, to paste into a command line: as is when it holds only safe
    /// characters, else in single quotes (a quote inside written `'\''`).
    package static func shellQuoted(_ word: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=@%+,-")
        if !word.isEmpty, word.allSatisfy({ safe.contains($0) }) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
