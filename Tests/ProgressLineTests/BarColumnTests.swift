import ProgressLine
import Testing

@Suite("Clicking the bar maps a column to a media time")
struct BarColumnTests {
    let renderer = ProgressRenderer(style: ProgressStyle(glyphs: .ascii))

    @Test("the bar's columns are where the renderer draws the bar's glyphs")
    func barColumnsMatchTheFrame() throws {
        var style = ProgressStyle(glyphs: .ascii)
        style.apply(try LayerStyleSpec(parsing: "track=#"))
        let renderer = ProgressRenderer(style: style)
        let snapshot = ProgressSnapshot(state: .playing, title: "clip", currentTime: 0, duration: 100, showsPlayed: false)
        let frame = Array(renderer.render(snapshot, width: 80))
        let bar = try #require(renderer.barColumns(snapshot, width: 80))
        #expect(bar.count >= ProgressRenderer.minimumBarWidth)
        // With the thumb at 0, every other cell of the bar is the track glyph, and none outside it.
        #expect(bar.dropFirst().allSatisfy { frame[$0] == "#" })
        #expect(frame[bar.upperBound] != "#")
        #expect(frame[bar.lowerBound - 1] == " ")
    }

    @Test("the first cell maps near 0, the last near the duration, the middle to the middle; outside is nil")
    func timeAtColumn() throws {
        let snapshot = ProgressSnapshot(state: .playing, currentTime: 30, duration: 120)
        let bar = try #require(renderer.barColumns(snapshot, width: 100))
        let cell = 120 / Double(bar.count)
        #expect(renderer.time(atColumn: bar.lowerBound, of: snapshot, width: 100) == cell / 2)
        #expect(abs(renderer.time(atColumn: bar.upperBound - 1, of: snapshot, width: 100)! - (120 - cell / 2)) < 1e-9)
        let middle = try #require(renderer.time(atColumn: bar.lowerBound + bar.count / 2, of: snapshot, width: 100))
        #expect(abs(middle - 60) <= cell)
        #expect(renderer.time(atColumn: bar.lowerBound - 1, of: snapshot, width: 100) == nil)
        #expect(renderer.time(atColumn: bar.upperBound, of: snapshot, width: 100) == nil)
    }

    @Test("the compact form has no bar to click")
    func compactHasNoBar() {
        let snapshot = ProgressSnapshot(state: .playing, currentTime: 30, duration: 120)
        #expect(renderer.barColumns(snapshot, width: 12) == nil)
        #expect(renderer.time(atColumn: 5, of: snapshot, width: 12) == nil)
    }

    @Test("a live snapshot maps clicks inside its sliding window")
    func liveWindow() throws {
        let snapshot = ProgressSnapshot(state: .playing, currentTime: 600, duration: nil, liveWindow: 60)
        let bar = try #require(renderer.barColumns(snapshot, width: 100))
        let first = try #require(renderer.time(atColumn: bar.lowerBound, of: snapshot, width: 100))
        #expect(first > 555 && first < 556)
    }
}
