/// A foreground color as the user wrote it; turned into the escape code the color mode allows, so
/// `#ff8800` still means something on a 16-color terminal.
public enum TerminalColor: Sendable, Hashable {
    /// One of the 16 ANSI colors: 0-7 normal, 8-15 bright (the user's own palette).
    case ansi(Int)
    /// An index into the xterm 256-color palette.
    case indexed(Int)
    /// A 24-bit color.
    case rgb(UInt8, UInt8, UInt8)

    private static let names: [String: Int] = [
        "black": 0, "red": 1, "green": 2, "yellow": 3, "blue": 4, "magenta": 5, "cyan": 6, "white": 7,
        "gray": 8, "grey": 8,
    ]

    /// Parses `red`, `bright-red` (or `brightred`, `bright_red`), `gray`, a 256-color index such as
    /// `196`, or `#ff8800` / `#f80`.
    public init(parsing text: String) throws(ProgressStyleError) {
        let lowered = text.lowercased()
        if lowered.hasPrefix("#") {
            let hex = Array(lowered.dropFirst())
            guard hex.count == 3 || hex.count == 6, hex.allSatisfy(\.isHexDigit) else {
                throw .badHexColor(text)
            }
            let digits = hex.map { UInt8($0.hexDigitValue!) }
            if digits.count == 3 {
                self = .rgb(digits[0] * 17, digits[1] * 17, digits[2] * 17)
            } else {
                self = .rgb(digits[0] << 4 | digits[1], digits[2] << 4 | digits[3], digits[4] << 4 | digits[5])
            }
            return
        }
        if !lowered.isEmpty, lowered.allSatisfy(\.isASCII), lowered.allSatisfy(\.isNumber) {
            guard lowered.count <= 3, let index = Int(lowered), index <= 255 else {
                throw .colorIndexOutOfRange(text)
            }
            self = .indexed(index)
            return
        }
        var name = lowered
        var bright = false
        for prefix in ["bright-", "bright_", "bright"] where name.hasPrefix(prefix) {
            name = String(name.dropFirst(prefix.count))
            bright = true
            break
        }
        guard let base = Self.names[name], !(bright && base == 8) else { throw .unknownColor(text) }
        self = .ansi(bright ? base + 8 : base)
    }

    /// The SGR parameters that select this color as foreground in `mode`, or nil when `mode` is none.
    public func foregroundParameters(in mode: ColorMode) -> String? {
        switch (mode, self) {
        case (.none, _):
            return nil
        case (_, .ansi(let n)):
            return Self.ansiParameter(n)
        case (.ansi16, .indexed(let n)):
            return Self.ansiParameter(n < 16 ? n : Self.nearestANSI(Self.rgb(ofIndex: n)))
        case (.ansi16, .rgb(let r, let g, let b)):
            return Self.ansiParameter(Self.nearestANSI((Int(r), Int(g), Int(b))))
        case (_, .indexed(let n)):
            return "38;5;\(n)"
        case (.ansi256, .rgb(let r, let g, let b)):
            return "38;5;\(Self.nearestIndex((Int(r), Int(g), Int(b))))"
        case (.truecolor, .rgb(let r, let g, let b)):
            return "38;2;\(r);\(g);\(b)"
        }
    }

    private static func ansiParameter(_ n: Int) -> String {
        let n = min(max(n, 0), 15)
        return n < 8 ? "\(30 + n)" : "\(90 + n - 8)"
    }

    // xterm's default palette: what "red" most likely looks like when we must pick the closest of 16.
    private static let ansiRGB: [(Int, Int, Int)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
        (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255),
        (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]
    private static let cubeLevels = [0, 95, 135, 175, 215, 255]

    private static func distance(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
        let dr = a.0 - b.0, dg = a.1 - b.1, db = a.2 - b.2
        return dr * dr + dg * dg + db * db
    }

    static func rgb(ofIndex n: Int) -> (Int, Int, Int) {
        switch n {
        case ..<16: return ansiRGB[max(n, 0)]
        case 16..<232:
            let i = n - 16
            return (cubeLevels[i / 36], cubeLevels[(i / 6) % 6], cubeLevels[i % 6])
        default:
            let level = 8 + 10 * (min(n, 255) - 232)
            return (level, level, level)
        }
    }

    static func nearestANSI(_ color: (Int, Int, Int)) -> Int {
        ansiRGB.indices.min { distance(ansiRGB[$0], color) < distance(ansiRGB[$1], color) }!
    }

    static func nearestIndex(_ color: (Int, Int, Int)) -> Int {
        func level(_ v: Int) -> Int {
            cubeLevels.indices.min { abs(cubeLevels[$0] - v) < abs(cubeLevels[$1] - v) }!
        }
        let (r, g, b) = (level(color.0), level(color.1), level(color.2))
        let cube = 16 + 36 * r + 6 * g + b
        let average = (color.0 + color.1 + color.2) / 3
        let gray = 232 + min(max((average - 3) / 10, 0), 23)
        return distance(rgb(ofIndex: gray), color) < distance(rgb(ofIndex: cube), color) ? gray : cube
    }
}
