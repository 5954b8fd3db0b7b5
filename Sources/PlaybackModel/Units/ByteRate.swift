/// A data rate in bytes per second: what a disk or a socket delivers (probe's read rate). Parsed with the
/// one rate grammar of `BitRate` (so `250kB/s` and `2Mbit` both work) and shown in bytes: `250 kB/s`.
public struct ByteRate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Bytes per second.
    public var bytesPerSecond: Double

    /// Wraps a number of bytes per second.
    public init(bytesPerSecond: Double) { self.bytesPerSecond = bytesPerSecond }

    /// Parses `text` in the rate grammar of `BitRate` (bare numbers are bits per second there too).
    public init(parsing text: String) throws(UnitError) {
        bytesPerSecond = try BitRate(parsing: text).bitsPerSecond / 8
    }

    /// The same rate in bits per second.
    public var bitRate: BitRate { BitRate(bitsPerSecond: bytesPerSecond * 8) }

    /// Orders by speed.
    public static func < (lhs: ByteRate, rhs: ByteRate) -> Bool { lhs.bytesPerSecond < rhs.bytesPerSecond }

    /// `800 B/s`, `12.3 kB/s`, `4.56 MB/s`, `1.23 GB/s` (decimal prefixes; the space sets it apart from the
    /// bit rates beside it).
    public var description: String {
        let value = bytesPerSecond
        let (scaled, unit, digits): (Double, String, Int) =
            if value >= 1e9 { (value / 1e9, "GB/s", 2) } else if value >= 1e6 {
                (value / 1e6, "MB/s", 2)
            } else if value >= 1e3 { (value / 1e3, "kB/s", 1) } else { (value, "B/s", 0) }
        return "\(UnitText.trimZeros(scaled, digits: digits)) \(unit)"
    }
}
