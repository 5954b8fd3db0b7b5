/// `#EXT-X-PROGRAM-DATE-TIME`'s value (RFC 8216 §4.3.2.6, an ISO/IEC 8601:2004 date-time with a time zone,
/// as `2026-11-26T23:20:01.123+0000` from FFmpeg's muxer or `...Z` from most packagers) as seconds since
/// 1970-01-01T00:00:00Z. Parsed by hand: Foundation's formatters are slow, locale-bound and differ between
/// platforms on the zone forms (`+0000`, `+00:00`, `+00`, `Z`), all of which real playlists carry.
public enum ProgramDateTime {
    /// Seconds since the Unix epoch, or `nil` when `text` is not a complete date-time with a zone (a time
    /// without a zone is ambiguous, and a player cannot place it on the clock either).
    public static func parse(_ text: some StringProtocol) -> Double? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + digits] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += digits
            return value
        }
        func expect(_ character: Character) -> Bool {
            guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
            index < bytes.count, bytes[index] == UInt8(ascii: "T") || bytes[index] == UInt8(ascii: "t")
        else { return nil }
        index += 1
        guard let hour = number(2), expect(":"), let minute = number(2), expect(":"), let second = number(2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60
        else { return nil }
        var fraction = 0.0
        if expect(".") || expect(",") {
            var scale = 0.1
            var digits = 0
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                fraction += Double(bytes[index] - 0x30) * scale
                scale /= 10
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
        }
        var offset = 0
        if expect("Z") || expect("z") {
            offset = 0
        } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = number(2), hours < 24 else { return nil }
            var minutes = 0
            if index < bytes.count {
                _ = expect(":")
                guard let parsed = number(2), parsed < 60 else { return nil }
                minutes = parsed
            }
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
    }

    /// Days from 1970-01-01 to the given proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
