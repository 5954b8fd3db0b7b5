internal import CFFmpeg

/// An exact fraction, FFmpeg's `AVRational` as a Swift value (time bases, frame rates).
public struct Rational: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Numerator.
    public var numerator: Int32
    /// Denominator; 0 means "unknown".
    public var denominator: Int32

    /// Creates `numerator/denominator`.
    public init(_ numerator: Int32, _ denominator: Int32) {
        self.numerator = numerator
        self.denominator = denominator
    }

    init(_ q: AVRational) { self.init(q.num, q.den) }

    /// The value as a double, or `nil` when the denominator or numerator is 0 (FFmpeg's "unknown").
    public var value: Double? {
        guard denominator != 0, numerator != 0 else { return nil }
        return Double(numerator) / Double(denominator)
    }

    /// Converts an integer timestamp in this time base to seconds; `AV_NOPTS_VALUE` becomes `nil`.
    public func seconds(_ ticks: Int64) -> Double? {
        guard ticks != cffmpeg_nopts_value(), denominator != 0 else { return nil }
        // One multiplication and one division in Double: exact for every tick count below 2^53.
        return Double(ticks) * Double(numerator) / Double(denominator)
    }

    /// `num/den`.
    public var description: String { "\(numerator)/\(denominator)" }
}
