/// Parses the quantities of simulation scripts and options: durations and bit rates with units.
///
/// Durations: a number followed by `ms`, `s`, `m` (or `min`) or `h`, `mm:ss` or `hh:mm:ss`, or a plain
/// number of seconds. Bit rates use decimal prefixes as networks do (1 kbit = 1,000 bits): a number followed
/// by `bit`, `kbit`, `Mbit` or `Gbit` (optionally `/s` or `ps`, as in `2Mbit/s` or `2Mbps`), by a byte rate
/// `B/s`, `kB/s`, `MB/s` or `GB/s`, or a plain number of bits per second. Spaces between number and unit are
/// allowed; negative values, NaN and infinity are rejected.
public enum UnitParser {
    /// Parses `text` as a duration in seconds (`0` and above).
    public static func seconds(_ text: String) throws(UnitError) -> Double {
        let trimmed = trim(text)
        if trimmed.contains(":") { return try clock(trimmed, original: text) }
        let (number, unit) = split(trimmed)
        guard let value = Double(number), value.isFinite else {
            throw UnitError(quantity: .duration, text: text)
        }
        let scale: Double
        switch unit {
        case "": scale = 1
        case "ms": scale = 0.001
        case "s", "sec": scale = 1
        case "m", "min": scale = 60
        case "h": scale = 3600
        default: throw UnitError(quantity: .duration, text: text, reason: "has an unknown unit '\(unit)'")
        }
        guard value >= 0 else { throw UnitError(quantity: .duration, text: text, reason: "must not be negative") }
        return value * scale
    }

    /// Parses `text` as a bit rate in bits per second (`0` and above; 0 is an outage).
    public static func bitsPerSecond(_ text: String) throws(UnitError) -> Double {
        let (number, rawUnit) = split(trim(text))
        guard let value = Double(number), value.isFinite else {
            throw UnitError(quantity: .bitRate, text: text)
        }
        guard let scale = bitRateScale(rawUnit) else {
            throw UnitError(quantity: .bitRate, text: text, reason: "has an unknown unit '\(rawUnit)'")
        }
        guard value >= 0 else { throw UnitError(quantity: .bitRate, text: text, reason: "must not be negative") }
        return value * scale
    }

    /// Parses `text` as a plain number greater than 0 (a playback rate, a speed factor).
    public static func positiveNumber(_ text: String) throws(UnitError) -> Double {
        let trimmed = trim(text)
        let digits = trimmed.hasSuffix("x") ? String(trimmed.dropLast()) : trimmed
        guard let value = Double(digits), value.isFinite else { throw UnitError(quantity: .number, text: text) }
        guard value > 0 else { throw UnitError(quantity: .number, text: text, reason: "must be greater than 0") }
        return value
    }

    /// Formats a duration for people: `250ms`, `1.5s`, `2m30s`, `1h2m`.
    public static func format(seconds: Double) -> String {
        guard seconds.isFinite else { return "\(seconds)" }
        if seconds < 1, seconds > 0 { return "\(trimZeros(seconds * 1000, digits: 0))ms" }
        if seconds < 60 { return "\(trimZeros(seconds, digits: 2))s" }
        let whole = Int(Rounding.nearest(seconds))
        if whole < 3600 { return whole % 60 == 0 ? "\(whole / 60)m" : "\(whole / 60)m\(whole % 60)s" }
        let minutes = (whole % 3600) / 60
        return minutes == 0 ? "\(whole / 3600)h" : "\(whole / 3600)h\(minutes)m"
    }

    /// Formats a bit rate for people with a decimal prefix: `640kbit/s`, `2.5Mbit/s`.
    public static func format(bitsPerSecond bps: Double) -> String {
        let (value, unit): (Double, String) =
            if bps >= 1e9 { (bps / 1e9, "Gbit/s") } else if bps >= 1e6 { (bps / 1e6, "Mbit/s") } else if bps
                >= 1e3 { (bps / 1e3, "kbit/s") } else { (bps, "bit/s") }
        return "\(trimZeros(value, digits: 3))\(unit)"
    }

    private static func bitRateScale(_ unit: String) -> Double? {
        var unit = unit
        for suffix in ["/s", "ps"] where unit.hasSuffix(suffix) && unit.count > suffix.count {
            unit.removeLast(suffix.count)
            // "kB/s" and "kbps" both end here; a bare "k" or "B" without "/s" is not accepted below.
            return bitRateBase(unit, perSecond: true)
        }
        return bitRateBase(unit, perSecond: false)
    }

    private static func bitRateBase(_ unit: String, perSecond: Bool) -> Double? {
        // Bit units may stand alone ("2Mbit"); byte units and the short "Mb" forms need "/s" or "ps".
        let bits: [String: Double] = ["bit": 1, "kbit": 1e3, "Kbit": 1e3, "Mbit": 1e6, "mbit": 1e6, "Gbit": 1e9, "gbit": 1e9]
        let shortBits: [String: Double] = ["b": 1, "kb": 1e3, "Kb": 1e3, "Mb": 1e6, "Gb": 1e9]
        let bytes: [String: Double] = ["B": 8, "kB": 8e3, "KB": 8e3, "MB": 8e6, "GB": 8e9]
        if unit.isEmpty { return perSecond ? nil : 1 }
        if let scale = bits[unit] { return scale }
        guard perSecond else { return nil }
        return shortBits[unit] ?? bytes[unit]
    }

    private static func clock(_ text: String, original: String) throws(UnitError) -> Double {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { throw UnitError(quantity: .duration, text: original) }
        var total = 0.0
        for (index, part) in parts.enumerated() {
            guard let value = Double(part), value.isFinite, value >= 0,
                index == parts.count - 1 || value == Rounding.down(value), index == 0 || value < 60
            else { throw UnitError(quantity: .duration, text: original) }
            total = total * 60 + value
        }
        return total
    }

    private static func trim(_ text: String) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    /// Splits `12.5 Mbit/s` into `12.5` and `Mbit/s`.
    private static func split(_ text: String) -> (String, String) {
        var numberEnd = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let isSign = (character == "-" || character == "+") && index == text.startIndex
            let isExponent =
                (character == "e" || character == "E") && index > text.startIndex
                && text.index(after: index) < text.endIndex
                && (text[text.index(after: index)].isNumber || text[text.index(after: index)] == "-")
            guard character.isNumber || character == "." || isSign || isExponent else { break }
            if isExponent, text[text.index(after: index)] == "-" { index = text.index(after: index) }
            index = text.index(after: index)
            numberEnd = index
        }
        let unit = text[numberEnd...].drop { $0 == " " }
        return (String(text[..<numberEnd]), String(unit))
    }

    private static func trimZeros(_ value: Double, digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = Rounding.nearest(value * scale) / scale
        if rounded == Rounding.down(rounded) { return "\(Int(rounded))" }
        var text = "\(rounded)"
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
