/// Number and time formatting for the fields around the bar; locale-free so golden tests are exact.
enum FieldFormat {
    /// `mm:ss`, or `h:mm:ss` when `hours`; negative times (encoder priming) get a leading `-`.
    static func clock(_ seconds: Double, hours: Bool) -> String {
        // Beyond 10^15 s (31 million years, a timestamp no real media has) Int() could trap: shown as unknown.
        guard seconds.isFinite, abs(seconds) < 1e15 else { return hours ? "-:--:--" : "--:--" }
        let sign = seconds < 0 ? "-" : ""
        let whole = Int(abs(seconds).rounded(.down))
        let s = whole % 60
        let m = (whole / 60) % 60
        let h = whole / 3600
        if hours { return "\(sign)\(h):\(two(m)):\(two(s))" }
        return "\(sign)\(two(whole / 60)):\(two(s))"
    }

    private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// One decimal below 10, a whole number above: `4.2`, `85`, `850`.
    static func short(_ value: Double) -> String {
        guard value.isFinite else { return "?" }
        // Beyond 2^53 a Double has no fraction to show, and beyond Int's range Int() would trap.
        guard abs(value) < 9e15 else { return "\(value)" }
        if abs(value) < 9.95 {
            let tenths = Int((value * 10).rounded())
            let sign = tenths < 0 ? "-" : ""
            return "\(sign)\(abs(tenths) / 10).\(abs(tenths) % 10)"
        }
        return "\(Int(value.rounded()))"
    }

    /// A rate with SI prefixes: `850 kbit/s`, `4.2 Mbit/s` for `unit` "bit", `13 MB/s` for "B". Bits are
    /// always spelled `bit` (as every summary and option writes them): `kb/s` beside `kB/s` reads alike.
    static func rate(_ value: Double, unit: String) -> String {
        var value = value
        var prefix = ""
        for next in ["k", "M", "G", "T"] where abs(value) >= 999.5 {
            value /= 1000
            prefix = next
        }
        return "\(short(value)) \(prefix)\(unit)/s"
    }

    /// Seconds for the buffered-ahead field: `2.5s`, `48s`.
    static func seconds(_ value: Double) -> String { "\(short(value))s" }

    /// `text` right-aligned in `width` columns (never cut).
    static func padLeft(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - TerminalWidth.columns(of: text))) + text
    }
}
