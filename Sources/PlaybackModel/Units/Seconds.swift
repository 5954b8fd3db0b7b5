/// A span of time from the command line or a script, in seconds: `250ms`, `1.5s`, `2m`, `1h`, `1d`,
/// `1:30` (m:ss), `1:02:03` (h:mm:ss), a sum from the largest unit down (`1h30m`, `2m30s`) or a plain
/// number of seconds (`90`, `0.5`).
///
/// Unit names are case-insensitive and may be spelled out (`ms`, `s`/`sec`/`seconds`, `m`/`min`/`minutes`,
/// `h`/`hr`/`hours`, `d`/`days`). Parsing refuses negative values, NaN, infinity and anything longer than
/// `maximum` (7 days), so that nothing past the boundary meets a duration it cannot count in.
public struct Seconds: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The longest accepted duration: 7 days (604,800 s). Longer than any media or monitoring run
    /// bufprobe is meant for, and far below where a packet count or a byte count could overflow.
    public static let maximum = 7 * 86_400.0

    /// The duration in seconds (0...`maximum` when parsed).
    public var value: Double

    /// Wraps a number of seconds (not checked: for defaults written in code).
    public init(_ value: Double) { self.value = value }

    /// Parses `text` in the one duration grammar (see the type's description).
    public init(parsing text: String) throws(UnitError) {
        let trimmed = UnitText.trim(text)
        let total: Double
        if trimmed.contains(":") {
            total = try Self.clock(trimmed, original: text)
        } else {
            total = try Self.units(trimmed, original: text)
        }
        guard total <= Self.maximum else {
            throw UnitError(quantity: .duration, text: text, reason: "is longer than 7 days, the longest accepted")
        }
        value = total
    }

    /// Orders by length.
    public static func < (lhs: Seconds, rhs: Seconds) -> Bool { lhs.value < rhs.value }

    /// For people, and parseable again: `250ms`, `1.5s`, `2m30s`, `1h2m` (whole seconds from a minute on,
    /// whole minutes from an hour on).
    public var description: String {
        guard value.isFinite, value < 0x1p53 else { return "\(value)" }
        if value > 0, value < 1 { return "\(UnitText.trimZeros(value * 1000, digits: 0))ms" }
        if value < 60 { return "\(UnitText.trimZeros(value, digits: 2))s" }
        let whole = Int64(Rounding.nearest(value))
        if whole < 3600 { return whole % 60 == 0 ? "\(whole / 60)m" : "\(whole / 60)m\(whole % 60)s" }
        let minutes = (whole % 3600) / 60
        return minutes == 0 ? "\(whole / 3600)h" : "\(whole / 3600)h\(minutes)m"
    }

    /// A number with an optional unit, or several with units from the largest down (`1h30m`).
    private static func units(_ text: Substring, original: String) throws(UnitError) -> Double {
        var rest = text
        var total = 0.0
        var previousScale = Double.infinity
        var parts = 0
        repeat {
            let (number, afterNumber) = UnitText.split(rest)
            let unit = afterNumber.prefix { $0.isLetter }
            rest = afterNumber.dropFirst(unit.count).drop { $0 == " " || $0 == "\t" }
            parts += 1
            let scale: Double
            switch unit.lowercased() {
            case "" where parts == 1 && rest.isEmpty: scale = 1
            case "s", "sec", "secs", "second", "seconds": scale = 1
            case "ms", "msec", "millisecond", "milliseconds": scale = 0.001
            case "m", "min", "mins", "minute", "minutes": scale = 60
            case "h", "hr", "hrs", "hour", "hours": scale = 3600
            case "d", "day", "days": scale = 86_400
            default:
                guard !unit.isEmpty, Double(number) != nil else { throw UnitError(quantity: .duration, text: original) }
                throw UnitError(quantity: .duration, text: original, reason: "has an unknown unit '\(unit)'")
            }
            // `1h30m` adds up; `30m1h` or `1m1m` is a typo, not a duration.
            guard scale < previousScale, parts == 1 || !number.hasPrefix("-") else {
                throw UnitError(quantity: .duration, text: original)
            }
            previousScale = scale
            total += try UnitText.value(number, original: original, quantity: .duration) * scale
        } while !rest.isEmpty
        return total
    }

    /// `m:ss` or `h:mm:ss`; only the last part may have decimals, minutes and seconds stay below 60.
    private static func clock(_ text: Substring, original: String) throws(UnitError) -> Double {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { throw UnitError(quantity: .duration, text: original) }
        var total = 0.0
        for (index, part) in parts.enumerated() {
            guard let value = Double(part), value.isFinite, !part.hasPrefix("+"),
                index == parts.count - 1 || value == Rounding.down(value), index == 0 || value < 60
            else {
                if part.hasPrefix("-") {
                    throw UnitError(quantity: .duration, text: original, reason: "must not be negative")
                }
                throw UnitError(quantity: .duration, text: original)
            }
            guard value >= 0 else {
                throw UnitError(quantity: .duration, text: original, reason: "must not be negative")
            }
            total = total * 60 + value
        }
        return total
    }
}
