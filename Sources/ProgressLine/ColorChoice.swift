/// What the user asked for with `--color`.
public enum ColorChoice: String, Sendable, Hashable, CaseIterable {
    /// Colors on a terminal unless `NO_COLOR` is set or `TERM=dumb`; depth from `COLORTERM`/`TERM`.
    case auto
    /// Colors even when not a terminal or when `NO_COLOR` is set; depth from `COLORTERM`/`TERM`.
    case always
    /// No colors.
    case never
    /// Force the 16 ANSI colors.
    case ansi16 = "16"
    /// Force the 256-color palette.
    case ansi256 = "256"
    /// Force 24-bit color.
    case truecolor
}
