/// The look of the line as a value: the seed article's inspectable properties (track, buffer, progress
/// and thumb colors, thumb visibility) plus a glyph per layer, marker looks, the glyph set and the
/// color mode.
///
/// Sub-cell precision (eighth blocks `▏▎▍▌▋▊▉`) is used when the glyph set is Unicode and the progress
/// glyph is the full block `█`; with any other progress glyph the played part is whole cells.
public struct ProgressStyle: Sendable, Equatable {
    /// Which default glyphs were chosen; also selects `…` or `~` for truncated titles.
    public var glyphSet: GlyphSet
    /// How colors are written; `none` writes no escape codes at all.
    public var colorMode: ColorMode
    /// Whether the thumb is drawn at the playhead (the seed's `isThumbVisible`).
    public var showsThumb: Bool
    private var layers: [BarLayer: LayerStyle]
    /// The glyphs of an adaptive stream's variants, lowest bit rate first: a loaded segment is drawn with
    /// its variant's glyph (`variantLook`), so the variants stay apart without color. Unicode: block
    /// heights `▂▃▄▅▆▇` spread over the ladder (3 variants: `▂▅▇`; the full block stays the played
    /// part's); ASCII: the variant's number `1`-`9`.
    public var variantGlyphs: [Character]
    /// The colors of the variants, lowest bit rate first, taken in order (3 variants: red, yellow,
    /// green); a ladder longer than the list shares them between neighbours.
    public var variantColors: [TerminalColor] = [.ansi(1), .ansi(3), .ansi(2), .ansi(6), .ansi(4), .ansi(5)]

    /// The default look for `glyphs`, colored with `colors`.
    public init(glyphs: GlyphSet = .unicode, colors: ColorMode = .none, showsThumb: Bool = true) {
        self.glyphSet = glyphs
        self.colorMode = colors
        self.showsThumb = showsThumb
        self.layers = Self.defaults(for: glyphs)
        self.variantGlyphs =
            glyphs == .unicode ? ["▂", "▃", "▄", "▅", "▆", "▇"] : ["1", "2", "3", "4", "5", "6", "7", "8", "9"]
    }

    /// The look of variant `index` (0 = lowest bit rate) of a ladder of `count`: the loaded segments'
    /// glyph and color. Never out of order: a higher variant never gets a lower glyph or color.
    public func variantLook(_ index: Int, of count: Int) -> LayerStyle {
        let count = max(count, 1)
        let index = min(max(index, 0), count - 1)
        let glyphs = variantGlyphs.isEmpty ? [self[.buffer].glyph] : variantGlyphs
        let glyph: Character
        if glyphSet == .unicode, count > 1, count <= glyphs.count {
            // Heights show magnitude: spread them so the top variant is the tallest block.
            glyph = glyphs[(index * (glyphs.count - 1) + (count - 1) / 2) / (count - 1)]
        } else if count == 1, glyphSet == .unicode {
            glyph = glyphs[glyphs.count - 1]
        } else {
            glyph = glyphs[Self.share(index, of: count, among: glyphs.count)]
        }
        let color = variantColors.isEmpty ? nil : variantColors[Self.share(index, of: count, among: variantColors.count)]
        return LayerStyle(glyph, color)
    }

    /// Entry `index` of `count` in a list of `slots`: in order when the list is long enough, else
    /// neighbours share one.
    private static func share(_ index: Int, of count: Int, among slots: Int) -> Int {
        count <= slots ? index : min(index * slots / count, slots - 1)
    }

    /// The look of `layer`.
    public subscript(layer: BarLayer) -> LayerStyle {
        // `defaults(for:)` lists every layer for both glyph sets; the blank is never drawn.
        get { layers[layer] ?? Self.defaults(for: glyphSet)[layer] ?? LayerStyle(" ", nil) }
        set { layers[layer] = newValue }
    }

    /// Applies one `--style` value: replaces the glyph and/or color it names.
    public mutating func apply(_ spec: LayerStyleSpec) {
        var look = self[spec.layer]
        if let glyph = spec.glyph { look.glyph = glyph }
        switch spec.color {
        case .keep: break
        case .off: look.color = nil
        case .set(let color): look.color = color
        }
        self[spec.layer] = look
    }

    /// The color of the state word for `state`: green when things go well, yellow for a stall, red for
    /// a failure or an interruption.
    public func stateColor(_ state: PlaybackStateWord) -> TerminalColor? {
        switch state {
        case .loading, .reading, .seeking: .ansi(6)
        case .playing, .ended, .done: .ansi(2)
        case .paused: nil
        case .stalled: .ansi(3)
        case .failed, .interrupted: .ansi(1)
        }
    }

    static let eighths: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    /// Whether the played part may end in an eighth block.
    var usesEighths: Bool { glyphSet == .unicode && self[.progress].glyph == "█" }

    /// The character that marks a truncated title.
    var ellipsis: Character { glyphSet == .unicode ? "…" : "~" }

    private static func defaults(for glyphs: GlyphSet) -> [BarLayer: LayerStyle] {
        switch glyphs {
        case .unicode:
            [
                .track: LayerStyle("░", .ansi(8)), .buffer: LayerStyle("▒", .ansi(7)),
                .progress: LayerStyle("█", .ansi(6)), .thumb: LayerStyle("●", .ansi(15)),
                .current: LayerStyle("▓", .ansi(3)), .separator: LayerStyle("│", .ansi(8)),
                .stall: LayerStyle("!", .ansi(9)), .seek: LayerStyle("»", .ansi(12)),
                .gap: LayerStyle("×", .ansi(11)), .boundary: LayerStyle("│", .ansi(5)),
                .custom: LayerStyle("◆", .ansi(13)),
            ]
        case .ascii:
            [
                .track: LayerStyle("-", .ansi(8)), .buffer: LayerStyle("=", .ansi(7)),
                .progress: LayerStyle("#", .ansi(6)), .thumb: LayerStyle("O", .ansi(15)),
                .current: LayerStyle("~", .ansi(3)), .separator: LayerStyle("|", .ansi(8)),
                .stall: LayerStyle("!", .ansi(9)), .seek: LayerStyle(">", .ansi(12)),
                .gap: LayerStyle("x", .ansi(11)), .boundary: LayerStyle("|", .ansi(5)),
                .custom: LayerStyle("*", .ansi(13)),
            ]
        }
    }
}
