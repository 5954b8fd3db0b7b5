#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing
@testable import ProgressLine

@Suite("Live line lifecycle and throttling")
struct LiveLineTests {
    let clock = TestClock()
    let sink = MemoryTerminalSink()
    let width = TestWidth(41)

    func line(_ mode: OutputMode = .tty, glyphs: GlyphSet = .ascii, colors: ColorMode = .none) -> LiveLine {
        LiveLine(
            mode: mode, style: ProgressStyle(glyphs: glyphs, colors: colors), sink: sink,
            width: width.closure, now: clock.closure)
    }

    func at(_ seconds: Double) -> ProgressSnapshot {
        ProgressSnapshot(state: .playing, currentTime: seconds, duration: 100, loaded: [0..<50])
    }

    /// Frames drawn (tty), each without its `\r` and `ESC[K`.
    func frames() -> [String] {
        sink.output.split(separator: "\r", omittingEmptySubsequences: true).compactMap { piece in
            guard let end = piece.firstRange(of: "\u{1B}[K") else { return nil }
            let frame = String(piece[..<end.lowerBound])
            return frame.isEmpty ? nil : frame
        }
    }

    func frame(_ snapshot: ProgressSnapshot) -> String {
        render(snapshot, width: 40, style: ProgressStyle(glyphs: .ascii))
    }

    @Test("updates inside the minimum interval are held and the latest is drawn by the next refresh")
    func rateLimit() {
        let live = line()
        live.show()
        live.update(at(1))
        clock.set(0.01)
        live.update(at(2))
        clock.set(0.02)
        live.update(at(3))
        clock.set(0.05)
        live.refresh()
        #expect(frames() == [frame(at(1))])
        clock.set(0.07)
        live.refresh()
        #expect(frames() == [frame(at(1)), frame(at(3))])
        clock.set(0.2)
        live.refresh()
        #expect(frames().count == 2)
    }

    @Test("several rows are drawn together: each erased to its end, the rest of the screen cleared, the cursor back on the first row")
    func rows() {
        let live = line()
        live.show()
        let a = ProgressSnapshot(state: .playing, title: "a.ts", currentTime: 1, duration: 100)
        let b = ProgressSnapshot(state: .loading, title: "b.ts", currentTime: 2, duration: 100)
        sink.clear()
        live.update(rows: [a, b])
        #expect(sink.writes == ["\r" + frame(a) + "\u{1B}[K\n" + frame(b) + "\u{1B}[K\u{1B}[J\u{1B}[1A\r"])
        // Back to one row: the second is erased by ESC[J.
        clock.set(1)
        sink.clear()
        live.update(rows: [b])
        #expect(sink.writes == ["\r" + frame(b) + "\u{1B}[K\u{1B}[J\r"])
        // A job that finished leaves its frame above the rows still running.
        clock.set(2)
        live.update(rows: [a, b])
        sink.clear()
        var ended = a
        ended.state = .ended
        live.printFinalAbove(ended)
        #expect(sink.writes == ["\r\u{1B}[J" + frame(ended) + "\u{1B}[K\n\r" + frame(a) + "\u{1B}[K\n" + frame(b) + "\u{1B}[K\u{1B}[J\u{1B}[1A\r"])
        // The final frame of several rows ends below the last one, so what follows is not drawn over it.
        sink.clear()
        live.finish()
        #expect(sink.writes == ["\r" + frame(a) + "\u{1B}[K\n" + frame(b) + "\u{1B}[K\u{1B}[J\r\n\u{1B}[?25h"])
    }

    @Test("a hundred updates in one second draw at most fifteen frames plus the last")
    func fifteenPerSecond() {
        let live = line()
        live.show()
        for step in 0..<100 {
            clock.set(Double(step) / 100)
            live.update(at(Double(step)))
            live.refresh()
        }
        clock.set(1.5)
        live.refresh()
        let drawn = frames()
        #expect(drawn.count <= 16)
        #expect(drawn.count >= 10)
        #expect(drawn.last == frame(at(99)))
    }

    @Test("finish draws the final state at once, ends the line and shows the cursor")
    func finishAlwaysDraws() {
        let live = line()
        live.show()
        live.update(at(1))
        clock.set(0.01)
        live.update(at(2))
        let final = ProgressSnapshot(state: .ended, currentTime: 100, duration: 100, loaded: [0..<100])
        live.finish(final: final)
        #expect(frames().last == frame(final))
        #expect(sink.output.hasSuffix("\r" + frame(final) + "\u{1B}[K\r\n\u{1B}[?25h"))
        #expect(!sink.cursorHidden)
        #expect(live.isFinished)
        sink.clear()
        live.update(at(5))
        live.show()
        live.printAbove("late")
        live.finish()
        #expect(sink.output == "late\n")
    }

    @Test("finish without keep erases the line instead of leaving it")
    func finishErases() {
        let live = line()
        live.show()
        live.update(at(1))
        sink.clear()
        live.finish(keep: false)
        #expect(sink.output == "\r\u{1B}[K\u{1B}[?25h")
    }

    @Test("show and hide are idempotent and toggle the cursor once each")
    func showHide() {
        let live = line()
        live.update(at(1))
        live.show()
        live.show()
        #expect(sink.output.ranges(of: "\u{1B}[?25l").count == 1)
        #expect(sink.cursorHidden)
        #expect(frames() == [frame(at(1))])
        live.hide()
        live.hide()
        #expect(sink.output.ranges(of: "\u{1B}[?25h").count == 1)
        #expect(sink.output.hasSuffix("\r\u{1B}[K\u{1B}[?25h"))
        #expect(!sink.cursorHidden)
        live.show()
        #expect(sink.output.ranges(of: "\u{1B}[?25l").count == 2)
    }

    @Test("isDue says whether an update would be drawn now")
    func isDue() {
        let live = line()
        #expect(!live.isDue)
        live.show()
        #expect(live.isDue)
        live.update(at(1))
        #expect(!live.isDue)
        clock.set(0.1)
        #expect(live.isDue)
        live.finish()
        #expect(!live.isDue)
        let silent = self.line(OutputMode.none)
        silent.show()
        #expect(!silent.isDue)
    }

    @Test("updates before show are recorded but not drawn")
    func updateBeforeShow() {
        let live = line()
        live.update(at(1))
        live.refresh()
        #expect(sink.output.isEmpty)
    }

    @Test("printAbove erases the line, prints, and redraws the latest state in one write")
    func printAbove() {
        let live = line()
        live.printAbove("before show")
        #expect(sink.writes == ["before show\n"])
        live.show()
        live.update(at(1))
        clock.set(0.01)
        live.update(at(2))
        sink.clear()
        live.printAbove("warning: \u{1B}[31mred\u{1B}[0m\n")
        #expect(sink.writes == ["\r\u{1B}[Kwarning: \\x1b[31mred\\x1b[0m\n\r" + frame(at(2)) + "\u{1B}[K\r"])
    }

    @Test("an unchanged frame is not written again")
    func noDuplicateFrames() {
        let live = line()
        live.show()
        live.update(at(1))
        clock.set(1)
        live.update(at(1))
        clock.set(2)
        live.refresh()
        #expect(frames() == [frame(at(1))])
    }

    @Test("an indeterminate snapshot animates on refresh without new updates")
    func animation() {
        let live = line()
        live.show()
        live.update(ProgressSnapshot(state: .loading, isIndeterminate: true))
        for step in 1...4 {
            clock.set(Double(step) * 0.1)
            live.refresh()
        }
        let drawn = frames()
        #expect(drawn.count == 5)
        #expect(Set(drawn).count == 5)
        #expect(drawn[2] == render(ProgressSnapshot(state: .loading, isIndeterminate: true, tick: 2), width: 40, style: ProgressStyle(glyphs: .ascii)))
    }

    @Test("after a resize the line is redrawn at the new width")
    func resize() {
        let live = line()
        live.show()
        live.update(at(1))
        width.set(31)
        sink.clear()
        live.resized()
        #expect(sink.output == "\r\u{1B}[J\r" + render(at(1), width: 30, style: ProgressStyle(glyphs: .ascii)) + "\u{1B}[K\r")
    }

    @Test("frames leave the last terminal column free")
    func lastColumnFree() {
        let live = line(glyphs: .unicode, colors: .truecolor)
        live.show()
        live.update(Fixtures.full)
        #expect(frames().map { TerminalWidth.columns(of: $0) } == [40])
    }

    @Test("plain mode writes no escape byte: quiet for 5 s, then every 5 s and on state changes, the final line")
    func plainMode() {
        let live = line(.plain, glyphs: .unicode, colors: .truecolor)
        live.show()
        live.update(at(1))
        clock.set(1)
        live.update(at(2))
        clock.set(2)
        live.update(ProgressSnapshot(state: .stalled, currentTime: 3, duration: 100))
        clock.set(4)
        live.update(ProgressSnapshot(state: .stalled, currentTime: 4, duration: 100))
        live.refresh()
        clock.set(7.5)
        live.refresh()
        live.printAbove("log \u{1B}[1mline")
        live.hide()
        live.finish(final: ProgressSnapshot(state: .ended, currentTime: 100, duration: 100))
        #expect(!sink.output.contains("\u{1B}"))
        #expect(sink.writes == [
            "Stalled  00:04 / 01:40  4%\n",
            "log \\x1b[1mline\n",
            "Ended  01:40 / 01:40  100%\n",
        ])
    }

    @Test("plain mode prints a state change at once once the quiet period is over")
    func plainModeStateChange() {
        let live = line(.plain)
        live.show()
        clock.set(6)
        live.update(at(6))
        clock.set(6.5)
        live.update(ProgressSnapshot(state: .stalled, currentTime: 7, duration: 100))
        clock.set(7)
        live.update(ProgressSnapshot(state: .stalled, currentTime: 7, duration: 100))
        #expect(sink.writes == ["Playing  00:06 / 01:40  6%\n", "Stalled  00:07 / 01:40  7%\n"])
    }

    @Test("plain mode does not repeat a final line that the last status line already printed")
    func plainModeFinalNotRepeated() {
        let live = line(.plain)
        live.show()
        clock.set(6)
        live.update(at(6))
        clock.set(7)
        let ended = ProgressSnapshot(state: .ended, currentTime: 100, duration: 100)
        live.update(ended)
        live.finish(final: ended)
        #expect(sink.writes == ["Playing  00:06 / 01:40  6%\n", "Ended  01:40 / 01:40  100%\n"])
    }

    @Test("plain mode says nothing for a job shorter than one interval, not even a final line")
    func plainModeShortJobIsSilent() {
        let live = line(.plain)
        live.show()
        live.update(at(1))
        clock.set(4.9)
        live.update(at(2))
        live.refresh()
        live.finish(final: ProgressSnapshot(state: .ended, currentTime: 100, duration: 100))
        #expect(sink.writes.isEmpty)
    }

    @Test("none mode writes nothing but the lines printed above")
    func noneMode() {
        let live = line(OutputMode.none)
        live.show()
        live.update(at(1))
        clock.set(10)
        live.refresh()
        live.resized()
        live.hide()
        live.show()
        #expect(sink.output.isEmpty)
        live.printAbove("a warning")
        live.finish(final: at(2))
        live.finishInterrupted()
        #expect(sink.writes == ["a warning\n"])
        #expect(!sink.cursorHidden)
    }

    @Test("many producers posting at once leave exactly one line owner and the last state drawn")
    func concurrentProducers() async {
        let live = line()
        live.show()
        await withTaskGroup(of: Void.self) { group in
            for producer in 0..<8 {
                group.addTask {
                    for step in 0..<200 { live.update(at(Double(producer * 200 + step) / 20)) }
                }
            }
        }
        let final = at(100)
        live.finish(final: final)
        #expect(frames().last == frame(final))
        #expect(sink.output.ranges(of: "\u{1B}[?25l").count == 1)
        #expect(sink.output.hasSuffix("\r\n\u{1B}[?25h"))
    }
}
