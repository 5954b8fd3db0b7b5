public import ArgumentParser
public import ProgressLine
import CheckEngine

/// The options every command shares for its live progress line: output mode, colors, glyphs, and the
/// look of each bar layer. Include with `@OptionGroup var progressOptions: ProgressOptions`.
public struct ProgressOptions: ParsableArguments {
    /// `--progress`: where and how the live line is drawn.
    public enum Mode: String, RawValueArgument, Sendable {
        /// tty on a terminal (not `TERM=dumb`), plain otherwise.
        case auto
        /// One line redrawn in place with escape codes.
        case tty
        /// No escape codes: a status line every 5 seconds and at each state change, plus the final line.
        case plain
        /// No progress output.
        case none
    }

    /// `--glyphs`: which characters draw the bar.
    public enum Glyphs: String, RawValueArgument, Sendable {
        /// Unicode when `LC_ALL`/`LC_CTYPE`/`LANG` names UTF-8, ASCII otherwise.
        case auto
        /// Block elements with eighth blocks.
        case unicode
        /// Printable ASCII.
        case ascii
    }

    /// `--thumb`: whether the playhead is drawn.
    public enum Thumb: String, RawValueArgument, Sendable {
        /// Draw the thumb.
        case on
        /// Leave the thumb out (the played part then ends in an eighth block).
        case off
    }

    /// How the live line is drawn.
    @Option(help: "How the live line is drawn: auto picks tty on a terminal and plain otherwise; plain prints a status line every 5 s without escape codes.")
    public var progress: Mode = .auto

    /// Whether to color the line.
    @Option(help: "Colors of the live line: auto turns them off when NO_COLOR is set, TERM=dumb or stderr is not a terminal.")
    public var color: ColorChoice = .auto

    /// Which glyph set to use.
    @Option(help: "Bar glyphs: auto picks unicode when LC_ALL, LC_CTYPE or LANG names UTF-8.")
    public var glyphs: Glyphs = .auto

    /// Whether to draw the thumb; nil keeps the command's default.
    @Option(help: "Draw the thumb at the playhead (default: on, except where the command has no playhead).")
    public var thumb: Thumb?

    /// Per-layer glyph and color overrides, applied in order.
    @Option(
        name: .customLong("style"),
        help: ArgumentHelp(
            "Look of one bar layer: LAYER=GLYPH, LAYER=:COLOR or LAYER=GLYPH:COLOR (repeatable).",
            discussion: "Layers: \(BarLayer.allCases.map(\.rawValue).joined(separator: ", ")). Colors: a name (red, bright-blue, gray), a 256-color index (196), #rrggbb, or none. Example: --style buffer==:blue --style stall=!:#ff8800",
            valueName: "layer=spec"),
        transform: { text in try LayerStyleSpec(parsing: text) })
    public var styles: [LayerStyleSpec] = []

    /// Creates the options with their defaults.
    public init() {}

    /// The output mode these options select in `environment`.
    public func outputMode(in environment: TerminalEnvironment) -> OutputMode {
        switch progress {
        case .auto: environment.outputMode(requested: nil)
        case .tty: .tty
        case .plain: .plain
        case .none: .none
        }
    }

    /// The style these options select in `environment`; `thumbByDefault` is the command's choice when
    /// `--thumb` is not given (probe has no playhead to show).
    public func style(in environment: TerminalEnvironment, thumbByDefault: Bool = true) -> ProgressStyle {
        let mode = outputMode(in: environment)
        let glyphSet: GlyphSet? =
            switch glyphs {
            case .auto: nil
            case .unicode: .unicode
            case .ascii: .ascii
            }
        var style = ProgressStyle(
            glyphs: environment.glyphSet(requested: glyphSet),
            colors: environment.colorMode(requested: color, output: mode),
            showsThumb: thumb.map { $0 == .on } ?? thumbByDefault)
        for spec in styles { style.apply(spec) }
        return style
    }

    /// The process's live line on stderr as these options and the real environment (isatty(2), TERM,
    /// NO_COLOR, COLORTERM, LC_ALL/LC_CTYPE/LANG) select; it also becomes `LiveLine.current`.
    public func makeLiveLine(
        environment: TerminalEnvironment = .current(), thumbByDefault: Bool = true
    ) -> LiveLine {
        LiveLine.standardError(
            mode: outputMode(in: environment), style: style(in: environment, thumbByDefault: thumbByDefault))
    }
}

// `--color` takes ProgressLine's own choice type: one list of color choices for the renderer and the CLI.
extension ColorChoice: RawValueArgument {}
