import ProgressLine
import Testing

/// Issue 22's live bar: the time-shift window as the track, the edge at its right end, the buffer and the
/// playhead inside it, and the latency as the figure, in every width the VOD bar supports.
@Suite("The live bar: the time-shift window up to the edge, and the latency")
struct LiveBarTests {
    /// 40 s window (60 to 100 s), the edge at 100, the playhead 8.2 s behind it with 5 s buffered.
    static func snapshot() -> ProgressSnapshot {
        var snapshot = ProgressSnapshot(
            state: .playing, currentTime: 91.8, duration: nil, loaded: [84..<96.8], bufferedAhead: 5,
            throughputBitsPerSecond: 1_000_000)
        snapshot.live = LiveEdge(windowStart: 60, edge: 100, latency: 8.2)
        return snapshot
    }

    @Test("the track spans the window: the played part up to the playhead, then the buffer, then what the edge has that the player has not")
    func layout() {
        let style = Fixtures.style(.ascii, thumb: false)
        var snapshot = Self.snapshot()
        (snapshot.bufferedAhead, snapshot.throughputBitsPerSecond) = (nil, nil)
        // "Playing " and " live -8.2 s" leave 20 cells over the 40 s window, 2 s each: played to 91.8 s
        // (15 whole cells), buffered to 96.8 s (cells 15-17; cell 18 is covered 0.8 s of 2), then the edge's.
        let line = render(snapshot, width: 40, style: style)
        #expect(line == "Playing ###############===-- live -8.2 s", "\(line)")
    }

    @Test("the latency is the figure in every width; the compact form keeps it", arguments: [100, 40, 20, 14])
    func widths(width: Int) {
        let line = render(Self.snapshot(), width: width, style: Fixtures.style(.unicode))
        #expect(TerminalWidth.columns(of: line) == width)
        if width >= 40 { #expect(line.contains("live -8.2 s"), "\(line)") }
        if width == 14 { #expect(line.contains("Playing -8.2 s"), "\(line)") }
    }

    @Test("a playhead that fell behind the window stretches the track back to it, and an unknown window shows liveWindow seconds")
    func behindTheWindow() {
        var snapshot = Self.snapshot()
        snapshot.currentTime = 50
        snapshot.loaded = []
        snapshot.live = LiveEdge(windowStart: 60, edge: 100, latency: 50)
        let style = Fixtures.style(.ascii, thumb: true)
        let behind = render(snapshot, width: 8 + 10, style: style)
        #expect(behind == "Playing O---------", "the thumb at the left end, not off the bar: \(behind)")
        snapshot.currentTime = 95
        snapshot.live = LiveEdge(windowStart: nil, edge: 100, latency: 5)
        snapshot.liveWindow = 20
        // 10 cells over 80..100: the playhead at 95 is in cell 7.
        #expect(render(snapshot, width: 18, style: style) == "Playing #######O--")
    }

    @Test("absurd figures draw a line instead of trapping")
    func absurd() {
        var snapshot = Self.snapshot()
        snapshot.live = LiveEdge(windowStart: .nan, edge: .infinity, latency: -.infinity)
        #expect(TerminalWidth.columns(of: render(snapshot, width: 30, style: Fixtures.style(.unicode))) == 30)
        snapshot.live = LiveEdge(windowStart: 100, edge: 100, latency: 1e300)
        #expect(render(snapshot, width: 30, style: Fixtures.style(.ascii)).contains("live -"))
    }
}
