/// A multiple from the command line or a script: a playback rate (`rate: 1.5`), a speed-up (`--speed 10`)
/// or check's `--rate 2x`. A plain number with an optional trailing `x`, greater than 0 and at most
/// `maximum` (1000), so that no clock is scaled into infinity.
public struct Factor: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The largest accepted multiple.
    public static let maximum = 1000.0

    /// The multiple (0 < value <= `maximum` when parsed).
    public var value: Double

    /// Wraps a multiple (not checked: for defaults written in code).
    public init(_ value: Double) { self.value = value }

    /// Parses `1.5`, `2x` or `0.5X`.
    public init(parsing text: String) throws(UnitError) {
        let (number, unit) = UnitText.split(UnitText.trim(text))
        guard unit.isEmpty || unit == "x" || unit == "X" else { throw UnitError(quantity: .factor, text: text) }
        let value = try UnitText.value(number, original: text, quantity: .factor)
        guard value > 0 else { throw UnitError(quantity: .factor, text: text, reason: "must be greater than 0") }
        guard value <= Self.maximum else {
            throw UnitError(quantity: .factor, text: text, reason: "is more than 1000, the largest accepted")
        }
        self.value = value
    }

    /// Orders by size.
    public static func < (lhs: Factor, rhs: Factor) -> Bool { lhs.value < rhs.value }

    /// `1.5x`.
    public var description: String { "\(UnitText.trimZeros(value, digits: 3))x" }
}
