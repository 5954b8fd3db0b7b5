/// Bit rates written the way people write them: `400k`, `1.5M`, `2G`, `250000`.
package enum BitRateArgument {
    /// The value in bit/s, or `nil` when `text` is not a positive finite number with an optional
    /// `k`/`M`/`G` suffix (decimal, as network rates are).
    package static func parse(_ text: String) -> Double? {
        var digits = Substring(text)
        var scale = 1.0
        switch digits.last {
        case "k", "K": scale = 1e3
        case "m", "M": scale = 1e6
        case "g", "G": scale = 1e9
        default: break
        }
        if scale != 1 { digits = digits.dropLast() }
        guard let value = Double(digits), value.isFinite, value >= 0 else { return nil }
        return value * scale
    }
}
