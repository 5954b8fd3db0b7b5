/// How many colors the terminal is asked to show; `none` writes no color escape codes at all.
public enum ColorMode: String, Sendable, Hashable, CaseIterable {
    /// No colors.
    case none
    /// The 16 ANSI colors (SGR 30-37, 90-97).
    case ansi16
    /// The xterm 256-color palette (SGR 38;5;n).
    case ansi256
    /// 24-bit color (SGR 38;2;r;g;b).
    case truecolor
}
