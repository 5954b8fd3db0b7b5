#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The facts about stderr and the environment that decide output mode, colors and glyphs; a value, so
/// the decisions are tested without a terminal.
public struct TerminalEnvironment: Sendable, Equatable {
    /// Whether stderr is a terminal (isatty(2)).
    public var isTerminal: Bool
    /// The environment variables that matter: TERM, NO_COLOR, COLORTERM, LC_ALL, LC_CTYPE, LANG, COLUMNS.
    public var variables: [String: String]

    /// The names read by `current()`.
    public static let names = ["TERM", "NO_COLOR", "COLORTERM", "LC_ALL", "LC_CTYPE", "LANG", "COLUMNS"]

    /// Creates an environment value.
    public init(isTerminal: Bool, variables: [String: String]) {
        self.isTerminal = isTerminal
        self.variables = variables
    }

    /// The process's own stderr and environment.
    public static func current() -> TerminalEnvironment {
        var variables: [String: String] = [:]
        for name in names {
            if let value = getenv(name) { variables[name] = String(cString: value) }
        }
        return TerminalEnvironment(isTerminal: isatty(2) == 1, variables: variables)
    }

    /// `TERM` is `dumb`: the terminal understands no escape codes.
    public var isDumb: Bool { variables["TERM"] == "dumb" }

    /// The locale (first set of LC_ALL, LC_CTYPE, LANG) names UTF-8.
    public var isUTF8: Bool {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { self.variables[$0] }.first { !$0.isEmpty }
        guard let locale = locale?.lowercased() else { return false }
        return locale.contains("utf-8") || locale.contains("utf8")
    }

    /// `requested` (nil = auto): auto is tty on a terminal that is not dumb, plain otherwise.
    public func outputMode(requested: OutputMode?) -> OutputMode {
        if let requested { return requested }
        return isTerminal && !isDumb ? .tty : .plain
    }

    /// The color mode for `requested` when the line is drawn in `mode`: never any color outside tty
    /// mode; `auto` is off when `NO_COLOR` is set (non-empty), stderr is not a terminal or `TERM=dumb`.
    public func colorMode(requested: ColorChoice, output mode: OutputMode) -> ColorMode {
        guard mode == .tty else { return .none }
        switch requested {
        case .never: return .none
        case .ansi16: return .ansi16
        case .ansi256: return .ansi256
        case .truecolor: return .truecolor
        case .always: return depth
        case .auto:
            if let noColor = variables["NO_COLOR"], !noColor.isEmpty { return .none }
            return isTerminal && !isDumb ? depth : .none
        }
    }

    /// `requested` (nil = auto): auto is Unicode when the locale is UTF-8 and TERM is not dumb.
    public func glyphSet(requested: GlyphSet?) -> GlyphSet {
        if let requested { return requested }
        return isUTF8 && !isDumb ? .unicode : .ascii
    }

    /// The color depth the terminal claims: truecolor from COLORTERM, 256 from TERM, else 16.
    public var depth: ColorMode {
        let colorTerm = variables["COLORTERM"]?.lowercased() ?? ""
        if colorTerm == "truecolor" || colorTerm == "24bit" { return .truecolor }
        if variables["TERM"]?.contains("256color") == true { return .ansi256 }
        return .ansi16
    }
}
