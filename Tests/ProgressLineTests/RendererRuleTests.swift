import Testing
@testable import ProgressLine

@Suite("Renderer rules")
struct RendererRuleTests {
    @Test(
        "every frame is exactly the asked width, escape codes counting zero",
        arguments: [ColorMode.none, .ansi16, .ansi256, .truecolor])
    func exactWidth(colors: ColorMode) {
        for snapshot in Fixtures.all {
            for glyphs in GlyphSet.allCases {
                for thumb in [true, false] {
                    let style = Fixtures.style(glyphs, thumb: thumb, colors: colors)
                    for width in 0...220 {
                        let line = render(snapshot, width: width, style: style)
                        #expect(TerminalWidth.columns(of: line) == width, "\(snapshot.state) at \(width)")
                    }
                }
            }
        }
    }

    @Test("colors change only escape codes, never the visible text")
    func colorsAreInvisible() {
        for snapshot in Fixtures.all {
            for colors in [ColorMode.ansi16, .ansi256, .truecolor] {
                let plain = render(snapshot, width: 90, style: Fixtures.style(.unicode))
                let colored = render(snapshot, width: 90, style: Fixtures.style(.unicode, colors: colors))
                #expect(colored != plain)
                #expect(stripEscapes(colored) == plain)
                #expect(colored.contains("\u{1B}[0m"))
            }
        }
    }

    @Test("no color mode writes no escape byte at all")
    func noEscapesWithoutColor() {
        for snapshot in Fixtures.all {
            for width in [5, 20, 80, 200] {
                #expect(!render(snapshot, width: width, style: Fixtures.style(.unicode)).contains("\u{1B}"))
            }
        }
    }

    @Test("the bar never gets fewer than 10 columns outside the compact form")
    func barFloor() {
        for width in 18...120 {
            let line = render(Fixtures.full, width: width, style: Fixtures.style(.ascii, thumb: false))
            let bar = line.filter { "#=-!x".contains($0) }
            #expect(bar.count >= 10, "width \(width): \(line)")
        }
        #expect(render(Fixtures.full, width: 17, style: Fixtures.style(.ascii)) == "Playing 51%      ")
    }

    @Test("fields drop in the documented order as the width shrinks")
    func dropOrder() {
        let style = Fixtures.style(.ascii)
        let present = { (width: Int) -> [String] in
            let line = render(Fixtures.full, width: width, style: style)
            var found: [String] = []
            // The title shortened ("Big B…") counts.
            if line.contains("Big") { found.append("title") }
            if line.contains("/ 2:00:00") { found.append("duration") }
            if line.contains("1:02:05") { found.append("time") }
            if line.contains("51%") { found.append("percent") }
            if line.contains("buf") { found.append("buffered") }
            if line.contains("Mbit/s") { found.append("throughput") }
            if line.contains("3.1x realtime") { found.append("realtime") }
            if line.contains("MB/s") { found.append("read") }
            return found
        }
        var seen: [[String]] = []
        for width in stride(from: 220, through: 18, by: -1) {
            let fields = present(width)
            if seen.last != fields { seen.append(fields) }
        }
        let all = ["title", "duration", "time", "percent", "buffered", "throughput", "realtime", "read"]
        // While the title keeps its room (shortened): the factor, the read rate, the percentage, the duration,
        // the throughput; then without the title, from every field: factor, read rate, throughput, buffered...
        #expect(seen == [
            all,
            ["title", "duration", "time", "percent", "buffered", "throughput", "read"],
            ["title", "duration", "time", "percent", "buffered", "throughput"],
            ["title", "duration", "time", "buffered", "throughput"],
            ["title", "time", "buffered", "throughput"],
            ["title", "time", "buffered"],
            ["duration", "time", "percent"],
            ["time", "percent"],
            ["percent"],
            [],
        ])
    }

    @Test("absurd figures draw a line instead of trapping: a subnormal duration, a timestamp of 10^300 s, a rate of 10^20")
    func absurdFigures() {
        let style = Fixtures.style(.ascii)
        // Cells of a 5e-324 s duration underflow to 0 s: every index would be NaN.
        let tiny = ProgressSnapshot(state: .paused, currentTime: 0, duration: .leastNonzeroMagnitude, loaded: [0..<1])
        #expect(render(tiny, width: 30, style: style).hasPrefix("Paused"))
        #expect(BarPainter.cell(at: 0, width: 0, cells: 10) == 0)
        #expect(BarPainter.cell(at: 1, width: 0, cells: 10) == 9)
        #expect(BarPainter.cell(at: 25, width: 10, cells: 10) == 2)
        #expect(FieldFormat.clock(1e300, hours: false) == "--:--")
        #expect(FieldFormat.clock(-1e300, hours: true) == "-:--:--")
        #expect(FieldFormat.clock(3725, hours: true) == "1:02:05")
        #expect(FieldFormat.short(1e20) == "1e+20")
        #expect(FieldFormat.short(850) == "850")
    }

    @Test("a loaded range covering less than half a cell is not drawn, half or more is")
    func halfCellRule() {
        // 10 cells over 100 s: each cell is 10 s.
        let style = Fixtures.style(.ascii, thumb: false)
        let under = ProgressSnapshot(state: .paused, currentTime: 0, duration: 100, loaded: [20..<24.9])
        let half = ProgressSnapshot(state: .paused, currentTime: 0, duration: 100, loaded: [20..<25])
        let split = ProgressSnapshot(state: .paused, currentTime: 0, duration: 100, loaded: [20..<23, 27..<29])
        #expect(render(under, width: 18, style: style) == "Paused  ----------")
        #expect(render(half, width: 18, style: style) == "Paused  --=-------")
        #expect(render(split, width: 18, style: style) == "Paused  --=-------")
    }

    @Test("the played part moves in eighths of a cell")
    func eighths() {
        let style = Fixtures.style(.unicode, thumb: false)
        let expected = ["░", "▏", "▎", "▍", "▌", "▋", "▊", "▉", "█"]
        for step in 0...8 {
            // 10 cells over 80 s: one eighth of a cell is 1 s.
            let snapshot = ProgressSnapshot(state: .playing, currentTime: Double(step), duration: 80)
            let line = render(snapshot, width: 18, style: style)
            #expect(line == "Playing " + expected[step] + String(repeating: "░", count: 9), "step \(step)")
        }
    }

    @Test("markers outside a live window are not drawn and a higher-priority marker wins a shared cell")
    func markerRules() {
        let style = Fixtures.style(.ascii, thumb: false)
        let outside = ProgressSnapshot(state: .playing, currentTime: 600, markers: [ProgressMarker(.stall, at: 100)])
        #expect(!render(outside, width: 18, style: style).contains("!"))
        let shared = ProgressSnapshot(
            state: .paused, currentTime: 0, duration: 100,
            markers: [ProgressMarker(.custom, at: 51), ProgressMarker(.stall, at: 52), ProgressMarker(.seek, at: 53)])
        #expect(render(shared, width: 18, style: style) == "Paused  -----!----")
    }

    @Test("a title keeps a shortened place before the factor; one that tells rows apart gets 16 columns first")
    func keptTitle() {
        var snapshot = ProgressSnapshot(
            state: .playing, title: "http://127.0.0.1:8080/media/h264-aac.mp4", currentTime: 3, duration: 10,
            loaded: [0..<6], bufferedAhead: 3, throughputBitsPerSecond: 2_000_000, realtimeFactor: 1.5)
        let style = Fixtures.style(.ascii)
        let plain = render(snapshot, width: 79, style: style)
        #expect(plain.contains(" 127~ac.mp4 "), "one row: the title, shortened, before the factor: \(plain)")
        #expect(!plain.contains("1.5x"), "\(plain)")
        #expect(plain.contains("00:03 / 00:10") && plain.contains("30%") && plain.contains("2.0 Mbit/s"), "\(plain)")
        snapshot.keepsTitle = true
        let kept = render(snapshot, width: 79, style: style)
        #expect(kept.contains(" 127.0.0.1~/h264-aac.mp4 "), "\(kept)")
        #expect(!kept.contains("1.5x") && !kept.contains("30%"), "\(kept)")
        #expect(kept.contains("00:03") && kept.contains("buf") && kept.contains("2.0 Mbit/s"), "\(kept)")
        #expect(TerminalWidth.columns(of: plain) == 79 && TerminalWidth.columns(of: kept) == 79)
    }

    @Test("at 60 columns a check keeps its title, shortened, and its throughput; the last figure says what it is")
    func sixtyColumns() {
        let check = ProgressSnapshot(
            state: .playing, title: "http://127.0.0.1:8081/slow/h264-aac.mp4", currentTime: 4, duration: 10,
            loaded: [0..<6], bufferedAhead: 2, throughputBitsPerSecond: 164_000, realtimeFactor: 0.77)
        let style = Fixtures.style(.ascii, thumb: false)
        let narrow = render(check, width: 60, style: style)
        #expect(narrow == "Playing 12~c.mp4 ######===------ 00:04  buf 2.0s  164 kbit/s", "\(narrow)")
        let wide = render(check, width: 120, style: style)
        #expect(wide.hasSuffix(" 0.8x realtime"), "\(wide)")
        var simulated = check
        simulated.realtimeFactor = nil
        simulated.playbackSpeed = 2
        #expect(render(simulated, width: 120, style: style).hasSuffix(" 2.0x speed"))
    }

    @Test("control characters in a title cannot reach the terminal")
    func titleSanitized() {
        let snapshot = ProgressSnapshot(state: .playing, title: "a\u{1B}[2Jb\u{7}", currentTime: 0, duration: 10)
        let line = render(snapshot, width: 80, style: Fixtures.style(.ascii))
        #expect(!line.contains("\u{1B}"))
        #expect(line.contains(#"a\x1b[2Jb\x07"#))
    }

    @Test("the plain status line carries every known field and no bar")
    func plainLine() {
        let renderer = ProgressRenderer(style: Fixtures.style(.unicode))
        #expect(renderer.renderPlain(Fixtures.full)
            == "Playing  Big Buck Bunny  1:02:05 / 2:00:00  51%  buf 275s  4.2 Mbit/s  3.1x realtime  13 MB/s")
        #expect(renderer.renderPlain(Fixtures.live) == "Playing  10:00 live  buf 5.0s")
        #expect(renderer.renderPlain(Fixtures.phases) == "Loading  3/6 open")
    }

    @Test("colors are written as the color mode allows", arguments: [
        (ColorMode.ansi16, "\u{1B}[0;36m"), (.ansi256, "\u{1B}[0;36m"), (.truecolor, "\u{1B}[0;36m"),
    ])
    func progressColor(mode: ColorMode, code: String) {
        let line = render(Fixtures.end, width: 20, style: Fixtures.style(.unicode, thumb: false, colors: mode))
        #expect(line.contains(code + "████"))
        #expect(line.hasPrefix("\u{1B}[0;1;32mEnded"))
    }

    @Test("a non-finite playhead draws a frame of the asked width instead of trapping", arguments: [Double.nan, .infinity, -.infinity])
    func nonFinitePlayhead(time: Double) {
        for duration in [nil, 60.0] {
            let snapshot = ProgressSnapshot(state: .playing, currentTime: time, duration: duration, loaded: [0..<30])
            #expect(TerminalWidth.columns(of: stripEscapes(render(snapshot, width: 60, style: Fixtures.style(.unicode)))) == 60)
        }
    }
}
