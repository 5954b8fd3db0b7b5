/// Rounding without libm: `Double.rounded` calls C's `round`/`floor`, which a module with no C imports
/// does not link on Linux. Exact for every value below 2^62 in magnitude, which covers any media time,
/// byte count or bit rate here; larger values are returned unchanged (they are whole numbers anyway).
enum Rounding {
    static func down(_ x: Double) -> Double {
        guard abs(x) < 0x1p62 else { return x }
        let t = Double(Int64(x))
        return t > x ? t - 1 : t
    }

    static func up(_ x: Double) -> Double {
        guard abs(x) < 0x1p62 else { return x }
        let t = Double(Int64(x))
        return t < x ? t + 1 : t
    }

    /// Nearest, halves away from zero (as `round`).
    static func nearest(_ x: Double) -> Double {
        x < 0 ? -down(-x + 0.5) : down(x + 0.5)
    }
}
