import Testing
@testable import ProgressLine

/// One row of the golden table: a snapshot drawn at a width with a glyph set and thumb setting.
struct Golden: CustomTestStringConvertible, Sendable {
    let name: String
    let snapshot: ProgressSnapshot
    let width: Int
    let glyphs: GlyphSet
    let thumb: Bool
    let expected: String

    var testDescription: String { "\(name) at \(width) columns, \(glyphs), thumb \(thumb ? "on" : "off")" }
}

private func r(_ glyph: String, _ count: Int) -> String { String(repeating: glyph, count: count) }

private let goldens: [Golden] = [
    // Holes: 0-30, 50-70, 90-100 of 100 s stay visible; a cell is loaded when at least half covered.
    Golden(name: "holes", snapshot: Fixtures.holes, width: 40, glyphs: .unicode, thumb: true,
           expected: "Playing █●▒▒░░▒▒▒░░░▒ 00:10 / 01:40  10%"),
    Golden(name: "holes, eighth block", snapshot: Fixtures.holes, width: 40, glyphs: .unicode, thumb: false,
           expected: "Playing █▎▒▒░░▒▒▒░░░▒ 00:10 / 01:40  10%"),
    Golden(name: "holes", snapshot: Fixtures.holes, width: 40, glyphs: .ascii, thumb: true,
           expected: "Playing #O==--===---= 00:10 / 01:40  10%"),
    Golden(name: "holes", snapshot: Fixtures.holes, width: 60, glyphs: .ascii, thumb: false,
           expected: "Playing ##=====----=====-----== 00:10 / 01:40  10%   buf 20s"),
    Golden(name: "holes", snapshot: Fixtures.holes, width: 20, glyphs: .unicode, thumb: true,
           expected: "Playing █●▒▒░░▒▒░░░▒"),
    Golden(name: "holes", snapshot: Fixtures.holes, width: 200, glyphs: .unicode, thumb: true,
           expected: "Playing " + r("█", 16) + "●" + r("▒", 32) + r("░", 32) + r("▒", 33) + r("░", 33) + r("▒", 16)
               + " 00:10 / 01:40  10%   buf 20s"),
    // Thumb at 0 and at the end: clamped inside the bar.
    Golden(name: "thumb at 0", snapshot: Fixtures.start, width: 40, glyphs: .unicode, thumb: true,
           expected: "Loading ●░░░░░░░░░░░░ 00:00 / 01:40   0%"),
    Golden(name: "nothing played", snapshot: Fixtures.start, width: 40, glyphs: .ascii, thumb: false,
           expected: "Loading ------------- 00:00 / 01:40   0%"),
    Golden(name: "thumb at the end", snapshot: Fixtures.end, width: 40, glyphs: .unicode, thumb: true,
           expected: "Ended   ████████████● 01:40 / 01:40 100%"),
    Golden(name: "all played", snapshot: Fixtures.end, width: 40, glyphs: .unicode, thumb: false,
           expected: "Ended   █████████████ 01:40 / 01:40 100%"),
    Golden(name: "thumb at the end", snapshot: Fixtures.end, width: 20, glyphs: .ascii, thumb: true,
           expected: "Ended   ###########O"),
    // A stall marker exactly under the thumb: the thumb wins; without the thumb the marker shows.
    Golden(name: "marker on thumb", snapshot: Fixtures.markerOnThumb, width: 40, glyphs: .unicode, thumb: true,
           expected: "Stalled ██»███●░░░░░░ 00:50 / 01:40  50%"),
    Golden(name: "marker at playhead", snapshot: Fixtures.markerOnThumb, width: 40, glyphs: .unicode, thumb: false,
           expected: "Stalled ██»███!░░░░░░ 00:50 / 01:40  50%"),
    Golden(name: "marker on thumb", snapshot: Fixtures.markerOnThumb, width: 20, glyphs: .ascii, thumb: true,
           expected: "Stalled ##>###O-----"),
    // Every field, at 20, 60 and 200 columns.
    Golden(name: "full", snapshot: Fixtures.full, width: 20, glyphs: .ascii, thumb: true,
           expected: "Playing ###!##Ox----"),
    Golden(name: "full", snapshot: Fixtures.full, width: 40, glyphs: .unicode, thumb: false,
           expected: "Playing ████!████▊▒×░░░░░░░ 1:02:05  51%"),
    Golden(name: "full", snapshot: Fixtures.full, width: 60, glyphs: .unicode, thumb: true,
           expected: "Playing Big B… ███!███●░×░░░░░ 1:02:05  buf 275s  4.2 Mbit/s"),
    Golden(name: "full", snapshot: Fixtures.full, width: 200, glyphs: .unicode, thumb: true,
           expected: "Playing Big Buck Bunny " + r("█", 26) + "!" + r("█", 28) + "●" + r("▒", 3) + r("░", 7) + "×"
               + r("░", 7) + r("▒", 2) + r("░", 31)
               + " 1:02:05 / 2:00:00  51%  buf 275s  4.2 Mbit/s  3.1x realtime   13 MB/s"),
    // CJK title: 2 columns per character, cut with an ellipsis.
    Golden(name: "CJK title", snapshot: Fixtures.cjk, width: 60, glyphs: .unicode, thumb: true,
           expected: "Playing 東京の夜景 Tokyo… ███●▒▒▒▒░░░░░░░ 00:30 / 02:00  25%"),
    Golden(name: "CJK title", snapshot: Fixtures.cjk, width: 60, glyphs: .ascii, thumb: false,
           expected: "Playing 東京の夜景 Tokyo~ ###=====------- 00:30 / 02:00  25%"),
    Golden(name: "CJK title", snapshot: Fixtures.cjk, width: 200, glyphs: .unicode, thumb: true,
           expected: "Playing 東京の夜景 Tokyo night " + r("█", 37) + "●" + r("▒", 37) + r("░", 75) + " 00:30 / 02:00  25%"),
    // Live: a 60 s window with the playhead at three quarters, no percentage.
    Golden(name: "live window", snapshot: Fixtures.live, width: 40, glyphs: .unicode, thumb: true,
           expected: "Playing ████████●░░ 10:00 live  buf 5.0s"),
    Golden(name: "live window", snapshot: Fixtures.live, width: 60, glyphs: .ascii, thumb: false,
           expected: "Playing #######################===----- 10:00 live  buf 5.0s"),
    // Below the minimum: the compact form.
    Golden(name: "compact", snapshot: Fixtures.holes, width: 17, glyphs: .unicode, thumb: true,
           expected: "Playing 10%      "),
    Golden(name: "compact live", snapshot: Fixtures.live, width: 17, glyphs: .unicode, thumb: true,
           expected: "Playing 10:00    "),
    Golden(name: "compact, state only", snapshot: Fixtures.holes, width: 10, glyphs: .unicode, thumb: true,
           expected: "Playing   "),
    Golden(name: "compact, cut", snapshot: Fixtures.holes, width: 5, glyphs: .ascii, thumb: true,
           expected: "Playi"),
    Golden(name: "compact indeterminate", snapshot: Fixtures.phases, width: 17, glyphs: .unicode, thumb: true,
           expected: "Loading          "),
    // Segmented modes.
    Golden(name: "time segments", snapshot: Fixtures.timeSegments, width: 40, glyphs: .unicode, thumb: false,
           expected: "Playing ████│▍▓▓│░░░░ seg 2/3 00:25  41%"),
    Golden(name: "time segments", snapshot: Fixtures.timeSegments, width: 60, glyphs: .ascii, thumb: true,
           expected: "Playing ########|#O~~~~~|-------- seg 2/3 00:25 / 01:00  41%"),
    Golden(name: "phases", snapshot: Fixtures.phases, width: 40, glyphs: .unicode, thumb: true,
           expected: "Loading ███│███│▓█▓│░░░│░░░│░░░ 3/6 open"),
    Golden(name: "phases", snapshot: Fixtures.phases, width: 60, glyphs: .ascii, thumb: true,
           expected: "Loading ######|######|~~~#~~~|------|------|------- 3/6 open"),
    Golden(name: "phases without room for separators", snapshot: Fixtures.phases, width: 20, glyphs: .ascii, thumb: true,
           expected: "Loading ####~#------"),
    // Probe: nothing plays, so the bar shows only what was read, holes included.
    Golden(name: "reading, loaded ranges only",
           snapshot: ProgressSnapshot(state: .reading, currentTime: 70, duration: 100, loaded: [0..<30, 50..<70],
                                      readBytesPerSecond: 2_500_000, showsPlayed: false),
           width: 60, glyphs: .unicode, thumb: false,
           expected: "Reading ▒▒▒▒▒▒▒░░░░▒▒▒▒▒░░░░░░░ 01:10 / 01:40  70%  2.5 MB/s"),
    // Indeterminate: a block bouncing one cell per tick.
    Golden(name: "opening, tick 0", snapshot: Fixtures.opening(tick: 0), width: 60, glyphs: .ascii, thumb: true,
           expected: "Loading http://x ######" + r("-", 37)),
    Golden(name: "opening, tick 5", snapshot: Fixtures.opening(tick: 5), width: 60, glyphs: .ascii, thumb: true,
           expected: "Loading http://x -----######" + r("-", 32)),
    Golden(name: "opening, tick 5", snapshot: Fixtures.opening(tick: 5), width: 20, glyphs: .unicode, thumb: true,
           expected: "Loading ░░░░░██░░░░░"),
]

@Suite("Renderer golden table")
struct RendererGoldenTests {
    @Test("renders each golden snapshot exactly", arguments: goldens)
    func golden(_ row: Golden) {
        let line = render(row.snapshot, width: row.width, style: Fixtures.style(row.glyphs, thumb: row.thumb))
        #expect(line == row.expected)
        #expect(TerminalWidth.columns(of: line) == row.width)
    }
}
