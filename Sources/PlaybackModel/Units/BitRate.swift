/// A data rate from the command line or a script, in bits per second.
///
/// The one rate grammar: a number, then optionally a decimal prefix (`k`, `M`, `G`, `T`: 1 kbit = 1,000
/// bits, as networks count), then a unit, then optionally `/s` or `ps`:
/// - no unit: bits per second, as ffmpeg's `-b:v 400k` and iperf read it: `400k`, `1.5M`, `64000`;
/// - `bit`/`bits` or `b`: bits (`500kbit`, `2Mbit/s`, `2Mbps`, `800bit`);
/// - `B` or `byte`/`bytes`: bytes, 8 bits (`250kB/s`, `1MB/s`, `100Bps`).
///
/// Prefixes and spelled-out unit names are case-insensitive (`2mbit` is 2 Mbit/s: there is no millibit);
/// only the one-letter unit tells bits (`b`) from bytes (`B`). Parsing refuses negative values, NaN,
/// infinity and anything above `maximum` (1 Tbit/s). 0 is valid here; every option and script field a
/// person writes goes through `init(parsingAsMeant:zero:)`, which refuses 0 and a unit-less number below
/// 1,000.
public struct BitRate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The highest accepted rate: 1 Tbit/s, above any network bufprobe models and far below where a byte
    /// count per second could overflow an `Int`.
    public static let maximum = 1e12

    /// Bits per second (0...`maximum` when parsed).
    public var bitsPerSecond: Double

    /// Wraps a number of bits per second (not checked: for defaults written in code).
    public init(bitsPerSecond: Double) { self.bitsPerSecond = bitsPerSecond }

    /// Parses `text` in the one rate grammar (see the type's description).
    public init(parsing text: String) throws(UnitError) {
        let (number, unit) = UnitText.split(UnitText.trim(text))
        guard let scale = Self.scale(unit) else {
            guard Double(number) != nil else { throw UnitError(quantity: .bitRate, text: text) }
            throw UnitError(quantity: .bitRate, text: text, reason: "has an unknown unit '\(unit)'")
        }
        let rate = try UnitText.value(number, original: text, quantity: .bitRate) * scale
        guard rate <= Self.maximum else {
            throw UnitError(quantity: .bitRate, text: text, reason: "is more than 1 Tbit/s, the highest accepted")
        }
        bitsPerSecond = rate
    }

    /// The smallest number written without a unit that is read as bits per second by
    /// `init(parsingAsMeant:zero:)`: below it (`150`), the unit was almost surely forgotten.
    public static let smallestUnitless = 1000.0

    /// `init(parsingAsMeant:zero:)`'s end of sentence for a network's bandwidth of 0.
    public static let zeroBandwidth =
        "a network that delivers nothing is an outage: use a script's timeline step, e.g. { at: 10s, outage: 5s }."
    /// `init(parsingAsMeant:zero:)`'s end of sentence for a media bit rate of 0.
    public static let zeroMediaBitRate = "media has a bit rate above 0, e.g. 2Mbit."

    /// Parses a rate a person gives for a network, a media or a pace, as meant: `init(parsing:)`, then
    /// refuses what no one means: a number without a unit below `smallestUnitless` (`150` is 150 bit/s;
    /// the sentence asks "did you mean 150k?") and 0 in any unit (`zero` says what to do instead, as the
    /// end of the sentence).
    public init(parsingAsMeant text: String, zero: String) throws(UnitError) {
        try self.init(parsing: text)
        let (number, unit) = UnitText.split(UnitText.trim(text))
        if bitsPerSecond == 0 {
            throw UnitError(quantity: .bitRate, text: text, reason: "is no rate at all", suggestion: zero)
        }
        if unit.isEmpty, bitsPerSecond < Self.smallestUnitless {
            // Below 10 a megabit is the likelier meaning (`2` for 2 Mbit/s); above, a kilobit (`150`).
            let (prefix, scale) = bitsPerSecond < 10 ? ("M", 1e6) : ("k", 1e3)
            let meant = BitRate(bitsPerSecond: bitsPerSecond * scale)
            throw UnitError(
                quantity: .bitRate, text: text,
                reason: "has no unit, so it is \(description), slower than any network or media",
                suggestion: "did you mean \(number)\(prefix) (\(meant))?")
        }
    }

    /// Orders by speed.
    public static func < (lhs: BitRate, rhs: BitRate) -> Bool { lhs.bitsPerSecond < rhs.bitsPerSecond }

    /// The one way bufprobe writes a bit rate for people (summaries, settings, sentences), and parseable
    /// again: the largest fitting decimal prefix, at most three significant digits, no trailing zeros:
    /// `800 bit/s`, `52.4 kbit/s`, `640 kbit/s`, `2.5 Mbit/s`, `4.2 Mbit/s`.
    public var description: String {
        var value = bitsPerSecond
        var unit = "bit/s"
        // Prefixed after rounding, so 999,700 bit/s reads `1 Mbit/s`, not `1000 kbit/s`.
        for prefix in ["kbit/s", "Mbit/s", "Gbit/s", "Tbit/s"] where abs(value) >= 999.5 {
            value /= 1000
            unit = prefix
        }
        let digits = abs(value) >= 99.95 ? 0 : abs(value) >= 9.995 ? 1 : 2
        return "\(UnitText.trimZeros(value, digits: digits)) \(unit)"
    }

    /// Bits per second per unit written, or `nil` when the unit is not one of the grammar's.
    static func scale(_ unit: Substring) -> Double? {
        var base = unit
        let lower = unit.lowercased()
        var perSecond = false
        if lower.hasSuffix("/s") {
            base = unit.dropLast(2)
            perSecond = true
        } else if lower.hasSuffix("ps"), let letter = unit.dropLast(2).last, letter == "b" || letter == "B" {
            // `ps` only after a unit letter: `Mbps`, `kBps`; a bare `kps` is nothing.
            base = unit.dropLast(2)
            perSecond = true
        }
        var prefix = 1.0
        if let first = base.first, base.count > 1 || !"bB".contains(first) {
            switch first {
            case "k", "K": prefix = 1e3
            case "m", "M": prefix = 1e6
            case "g", "G": prefix = 1e9
            case "t", "T": prefix = 1e12
            default: break
            }
            if prefix != 1 { base = base.dropFirst() }
        }
        switch base {
        case "": return perSecond ? nil : prefix
        case "b": return prefix
        case "B": return prefix * 8
        default:
            switch base.lowercased() {
            case "bit", "bits": return prefix
            case "byte", "bytes": return prefix * 8
            default: return nil
            }
        }
    }
}
