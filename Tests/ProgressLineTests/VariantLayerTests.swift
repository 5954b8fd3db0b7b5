import Testing
@testable import ProgressLine

@Suite("The variant layer of a segmented bar (adaptive streams)")
struct VariantLayerTests {
    /// The bar of `line` (drawn with `style` at `width`), escape codes removed.
    func bar(_ snapshot: ProgressSnapshot, width: Int, style: ProgressStyle) -> String {
        let line = stripEscapes(render(snapshot, width: width, style: style))
        guard let columns = ProgressRenderer(style: style).barColumns(snapshot, width: width) else { return "" }
        let characters = Array(line)
        return String(characters[columns])
    }

    /// `text` with runs of one character collapsed to one, separators dropped.
    func runs(_ text: String, dropping separator: Character) -> String {
        var result = ""
        for character in text where character != separator && character != result.last { result.append(character) }
        return result
    }

    @Test("without color each loaded segment shows its variant's glyph (ASCII: its number), the segment being fetched the current layer")
    func glyphsWithoutColor() {
        let style = ProgressStyle(glyphs: .ascii, colors: .none, showsThumb: false)
        let cells = bar(Fixtures.variants, width: 120, style: style)
        #expect(runs(cells, dropping: "|") == "#123~-", "\(cells)")
        let unicode = ProgressStyle(glyphs: .unicode, colors: .none, showsThumb: false)
        let blocks = bar(Fixtures.variants, width: 120, style: unicode)
        #expect(runs(blocks, dropping: "│") == "█▂▅▇▓░", "heights grow with the bit rate: \(blocks)")
        #expect(!render(Fixtures.variants, width: 120, style: style).contains("\u{1B}"))
    }

    @Test("with color each loaded segment, played or buffered, is drawn in its variant's color, lowest first: red, yellow, green")
    func colors() {
        let style = ProgressStyle(glyphs: .ascii, colors: .ansi16, showsThumb: false)
        let line = render(Fixtures.variants, width: 120, style: style)
        #expect(line.contains("\u{1B}[0;31m#"), "the played first segment in the lowest variant's red")
        #expect(line.contains("\u{1B}[0;31m1"))
        #expect(line.contains("\u{1B}[0;33m2"))
        #expect(line.contains("\u{1B}[0;32m3"))
        #expect(line.contains("\u{1B}[0;32m~"), "the segment in flight in the fetched variant's color")
        #expect(stripEscapes(line) == render(Fixtures.variants, width: 120, style: ProgressStyle(glyphs: .ascii, showsThumb: false)))
    }

    @Test("the legend names the variant being fetched with its swatch, place in the ladder and bit rate")
    func legend() {
        let plain = render(Fixtures.variants, width: 120, style: ProgressStyle(glyphs: .unicode))
        #expect(plain.contains("seg 5/6 ▇ 3/3 2.0 Mbit/s 00:10 / 01:00"), "\(plain)")
        let colored = render(Fixtures.variants, width: 120, style: ProgressStyle(glyphs: .unicode, colors: .ansi256))
        #expect(colored.contains(" \u{1B}[0;32m▇\u{1B}[0m 3/3 2.0 Mbit/s"), "\(colored)")
        var lower = Fixtures.variants
        lower.segments?.currentVariant = 0
        #expect(render(lower, width: 120, style: ProgressStyle(glyphs: .ascii)).contains("1 1/3 500 kbit/s"))
    }

    @Test("the legend drops after the throughput and before the buffered field; the line always fits")
    func legendDrops() {
        let style = ProgressStyle(glyphs: .unicode, colors: .truecolor)
        var seen: [[Bool]] = []
        for width in stride(from: 160, through: 1, by: -1) {
            let line = render(Fixtures.variants, width: width, style: style)
            #expect(TerminalWidth.columns(of: line) == width)
            let text = stripEscapes(line)
            let state = [text.contains("Mbit/s  "), text.contains("3/3"), text.contains("buf")]
            if seen.last != state { seen.append(state) }
        }
        #expect(seen.first == [true, true, true])
        #expect(seen.contains([false, true, true]), "throughput goes first: \(seen)")
        #expect(seen.contains([false, false, true]), "then the legend, before buffered: \(seen)")
    }

    @Test("more variants than colors share them in order; a higher variant never looks lower")
    func ordered() {
        let style = ProgressStyle(glyphs: .unicode, colors: .ansi16)
        for count in 1...12 {
            let looks = (0..<count).map { style.variantLook($0, of: count) }
            let heights = looks.map { style.variantGlyphs.firstIndex(of: $0.glyph) ?? -1 }
            let colors = looks.map { look in style.variantColors.firstIndex { $0 == look.color } ?? -1 }
            #expect(heights == heights.sorted() && !heights.contains(-1), "\(count): \(heights)")
            #expect(colors == colors.sorted() && !colors.contains(-1), "\(count): \(colors)")
            if count <= 6 { #expect(Set(looks).count == count, "\(count) variants look different") }
        }
        #expect(style.variantLook(-3, of: 3) == style.variantLook(0, of: 3))
        #expect(style.variantLook(99, of: 3) == style.variantLook(2, of: 3))
    }

    @Test("a long playlist draws no separators where segments are narrower than 3 cells, so the bar stays a bar")
    func noSeparatorFlood() {
        let starts = (0..<150).map { Double($0) * 2 }
        let snapshot = ProgressSnapshot(
            state: .playing, currentTime: 100, duration: 300, loaded: [0..<200],
            segments: SegmentProgress(
                starts: starts, current: 100, variants: (0..<150).map { $0 < 100 ? 1 : nil },
                variantBitRates: [1, 2], currentVariant: 1))
        let cells = bar(snapshot, width: 100, style: ProgressStyle(glyphs: .ascii, showsThumb: false))
        #expect(!cells.contains("|"), "\(cells)")
        #expect(cells.contains("2"))
    }

    @Test("variants outside the ladder are ignored, never trap")
    func hostileIndices() {
        let segments = SegmentProgress(
            starts: [0, 10], current: 0, variants: [7, -1], variantBitRates: [1_000], currentVariant: 5)
        #expect(segments.variants == [nil, nil])
        #expect(segments.currentVariant == nil)
        let snapshot = ProgressSnapshot(state: .playing, currentTime: 5, duration: 20, loaded: [0..<20], segments: segments)
        #expect(TerminalWidth.columns(of: render(snapshot, width: 80, style: ProgressStyle())) == 80)
    }

    @Test("the live line writes the variant colors to its terminal, and none with color off")
    func liveLine() {
        for colors in [ColorMode.ansi16, .none] {
            let sink = MemoryTerminalSink()
            let line = LiveLine(
                mode: .tty, style: ProgressStyle(glyphs: .ascii, colors: colors), sink: sink, width: { 120 },
                now: { 0 })
            line.show()
            line.update(Fixtures.variants)
            line.finish()
            #expect(sink.output.contains("1/3") == false)
            #expect(sink.output.contains("3/3 2.0 Mbit/s"))
            #expect(sink.output.contains("\u{1B}[0;33m2") == (colors != .none), "\(colors)")
            #expect(sink.output.contains("1111") && sink.output.contains("3333"))
        }
    }
}
