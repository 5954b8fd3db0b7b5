/// The one rule for media that ends before its container's declared end: more than 0.5 s or 2% of the
/// declared length missing is a truncation (probe's "looks truncated" warning, check's "ended early"),
/// anything less is rounding between the container's figure and the last packet's.
package enum TruncationRule {
    /// The shortest gap that counts, seconds.
    package static let minimum = 0.5
    /// The share of the declared length that counts.
    package static let fraction = 0.02

    /// Whether `missing` seconds short of a declared length of `declared` seconds is a truncation.
    package static func isTruncated(missing: Double, declared: Double) -> Bool {
        missing > max(minimum, declared * fraction)
    }
}
