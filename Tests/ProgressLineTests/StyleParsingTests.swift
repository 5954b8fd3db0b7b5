import Testing
import ProgressLine

@Suite("Style parsing")
struct StyleParsingTests {
    @Test("color names, bright names, 256-color indexes and hex parse", arguments: [
        ("red", TerminalColor.ansi(1)), ("Bright-Red", .ansi(9)), ("brightblue", .ansi(12)), ("bright_white", .ansi(15)),
        ("gray", .ansi(8)), ("grey", .ansi(8)), ("196", .indexed(196)), ("0", .indexed(0)),
        ("#ff8800", .rgb(255, 136, 0)), ("#F80", .rgb(255, 136, 0)),
    ])
    func colors(text: String, expected: TerminalColor) throws {
        #expect(try TerminalColor(parsing: text) == expected)
    }

    @Test("a bad color is rejected with one sentence saying what to write", arguments: [
        ("purple", ProgressStyleError.unknownColor("purple"),
         "'purple' is not a color: use a name (red, bright-blue, gray, default), a 256-color index 0-255, or #rrggbb."),
        ("256", .colorIndexOutOfRange("256"), "color index 256 is out of range: 256-color indexes go from 0 to 255."),
        ("#ff88", .badHexColor("#ff88"),
         "'#ff88' is not a hex color: write # followed by 3 or 6 hex digits, such as #f80 or #ff8800."),
        ("#gg0000", .badHexColor("#gg0000"),
         "'#gg0000' is not a hex color: write # followed by 3 or 6 hex digits, such as #f80 or #ff8800."),
        ("bright-gray", .unknownColor("bright-gray"),
         "'bright-gray' is not a color: use a name (red, bright-blue, gray, default), a 256-color index 0-255, or #rrggbb."),
    ])
    func badColors(text: String, error: ProgressStyleError, message: String) {
        #expect(throws: error) { try TerminalColor(parsing: text) }
        #expect(error.description == message)
    }

    @Test("colors degrade to what the terminal can show", arguments: [
        (TerminalColor.rgb(255, 136, 0), ColorMode.truecolor, "38;2;255;136;0"),
        (.rgb(255, 136, 0), .ansi256, "38;5;208"),
        (.rgb(255, 0, 0), .ansi16, "91"),
        (.indexed(196), .ansi16, "91"),
        (.indexed(4), .ansi16, "34"),
        (.indexed(196), .truecolor, "38;5;196"),
        (.rgb(128, 128, 128), .ansi256, "38;5;244"),
        (.ansi(1), .truecolor, "31"),
    ])
    func degrade(color: TerminalColor, mode: ColorMode, parameters: String) {
        #expect(color.foregroundParameters(in: mode) == parameters)
        #expect(color.foregroundParameters(in: .none) == nil)
    }

    @Test("--style values set the glyph, the color, or both")
    func specs() throws {
        #expect(try LayerStyleSpec(parsing: "buffer==:blue") == LayerStyleSpec(layer: .buffer, glyph: "=", color: .set(.ansi(4))))
        #expect(try LayerStyleSpec(parsing: "progress=:#ff8800") == LayerStyleSpec(layer: .progress, color: .set(.rgb(255, 136, 0))))
        #expect(try LayerStyleSpec(parsing: "stall=!") == LayerStyleSpec(layer: .stall, glyph: "!"))
        #expect(try LayerStyleSpec(parsing: "track=:none") == LayerStyleSpec(layer: .track, color: .off))
        #expect(try LayerStyleSpec(parsing: "separator=::196") == LayerStyleSpec(layer: .separator, glyph: ":", color: .set(.indexed(196))))
        #expect(try LayerStyleSpec(parsing: "played=█") == LayerStyleSpec(layer: .progress, glyph: "█"))
        #expect(try LayerStyleSpec(parsing: "thumb=:") == LayerStyleSpec(layer: .thumb, glyph: ":"))
    }

    @Test("a bad --style value names the problem", arguments: [
        ("trak=x", ProgressStyleError.unknownLayer("trak")),
        ("buffer", .missingLayer("buffer")),
        ("buffer=", .badGlyph("", layer: .buffer)),
        ("buffer=ab", .badGlyph("ab", layer: .buffer)),
        ("buffer=東", .badGlyph("東", layer: .buffer)),
        ("buffer=\u{7}", .badGlyph("\u{7}", layer: .buffer)),
        ("buffer=#:nope", .unknownColor("nope")),
    ])
    func badSpecs(text: String, error: ProgressStyleError) {
        #expect(throws: error) { try LayerStyleSpec(parsing: text) }
    }

    @Test("an unknown layer's message lists every layer")
    func layerMessage() {
        #expect(ProgressStyleError.unknownLayer("trak").description
            == "'trak' is not a bar layer: use one of track, buffer, progress, thumb, current, separator, stall, seek, gap, boundary, custom.")
        #expect(ProgressStyleError.badGlyph("ab", layer: .buffer).description
            == "the buffer glyph 'ab' is not one character one terminal column wide; use a single character such as '#' or '█'.")
    }

    @Test("applying a spec changes only what it names and the renderer draws it")
    func apply() throws {
        var style = ProgressStyle(glyphs: .ascii)
        let before = style[.buffer]
        style.apply(try LayerStyleSpec(parsing: "buffer=:red"))
        #expect(style[.buffer] == LayerStyle(before.glyph, .ansi(1)))
        style.apply(try LayerStyleSpec(parsing: "buffer=~"))
        #expect(style[.buffer] == LayerStyle("~", .ansi(1)))
        style.apply(try LayerStyleSpec(parsing: "progress=*"))
        let line = render(Fixtures.holes, width: 18, style: style)
        #expect(line == "Playing *O~--~~--~")
    }

    @Test("eighth blocks are used only with the Unicode full block as progress glyph")
    func eighthsNeedFullBlock() throws {
        var style = ProgressStyle(glyphs: .unicode, showsThumb: false)
        let snapshot = ProgressSnapshot(state: .playing, currentTime: 3, duration: 80)
        #expect(render(snapshot, width: 18, style: style).contains("▍"))
        style.apply(try LayerStyleSpec(parsing: "progress=="))
        #expect(render(snapshot, width: 18, style: style) == "Playing ░░░░░░░░░░")
    }
}
