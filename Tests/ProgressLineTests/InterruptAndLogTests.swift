#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing
@testable import ProgressLine

@Suite("Ctrl-C and logging")
struct InterruptAndLogTests {
    @Test("Ctrl-C cancels the work, then draws an Interrupted final frame and shows the cursor, then exits 130")
    func interrupt() {
        let sink = MemoryTerminalSink()
        let line = LiveLine(
            mode: .tty, style: ProgressStyle(glyphs: .ascii), sink: sink, width: { 41 }, now: { 0 })
        line.show()
        line.update(ProgressSnapshot(state: .reading, currentTime: 30, duration: 120, loaded: [0..<60]))
        let events = Mutex<[String]>([])
        let handler = InterruptHandler(
            line: line,
            onInterrupt: { events.withLock { $0.append("cancel; line finished: \(line.isFinished)") } },
            exit: { code in events.withLock { $0.append("exit \(code); output: \(sink.output.hasSuffix("\r\n\u{1B}[?25h"))") } })
        handler.handleInterrupt()
        #expect(events.withLock { $0 } == ["cancel; line finished: false", "exit 130; output: true"])
        let interrupted = ProgressSnapshot(state: .interrupted, currentTime: 30, duration: 120, loaded: [0..<60])
        #expect(sink.output.contains("\r" + render(interrupted, width: 40, style: ProgressStyle(glyphs: .ascii)) + "\u{1B}[K\r\n"))
        #expect(sink.output.contains("Interrupted"))
        #expect(!sink.cursorHidden)
    }

    @Test("SIGTERM, SIGHUP and SIGQUIT end like Ctrl-C, with 128 + their number", arguments: [
        (SIGTERM, Int32(143)), (SIGHUP, Int32(129)), (SIGQUIT, Int32(131)), (SIGINT, Int32(130)),
    ])
    func otherSignals(signal: Int32, status: Int32) {
        let sink = MemoryTerminalSink()
        let line = LiveLine(mode: .tty, style: ProgressStyle(glyphs: .ascii), sink: sink, width: { 41 }, now: { 0 })
        line.show()
        let exits = Mutex<[Int32]>([])
        let handler = InterruptHandler(line: line, onInterrupt: {}, exit: { code in exits.withLock { $0.append(code) } })
        handler.handle(signal: signal)
        #expect(exits.withLock { $0 } == [status])
        #expect(handler.exitStatus == status)
        #expect(sink.output.contains("Interrupted") && !sink.cursorHidden)
    }

    @Test("with a grace period the first signal only cancels (the command ends itself), a second one ends at once")
    func gracePeriod() {
        let sink = MemoryTerminalSink()
        let line = LiveLine(mode: .tty, style: ProgressStyle(glyphs: .ascii), sink: sink, width: { 41 }, now: { 0 })
        line.show()
        let events = Mutex<[String]>([])
        let handler = InterruptHandler(
            line: line, grace: .seconds(600), onInterrupt: { events.withLock { $0.append("cancel") } },
            exit: { code in events.withLock { $0.append("exit \(code)") } })
        handler.handle(signal: SIGTERM)
        #expect(events.withLock { $0 } == ["cancel"])
        #expect(handler.exitStatus == 143 && !line.isFinished)
        handler.handle(signal: SIGINT)
        #expect(events.withLock { $0 } == ["cancel", "exit 143"], "the first signal decides the status")
        #expect(line.isFinished)
    }

    @Test("a signal that arrives while the command is already exiting draws nothing and does not exit")
    func oneExitOwner() {
        let sink = MemoryTerminalSink()
        let line = LiveLine(mode: .tty, style: ProgressStyle(glyphs: .ascii), sink: sink, width: { 41 }, now: { 0 })
        line.show()
        let exits = Mutex<[Int32]>([])
        let handler = InterruptHandler(
            line: line, onInterrupt: {}, claim: { false }, exit: { code in exits.withLock { $0.append(code) } })
        handler.handleInterrupt()
        #expect(exits.withLock { $0 }.isEmpty)
        #expect(!sink.output.contains("Interrupted"))
    }

    @Test("an interrupt before any update still draws a frame saying Interrupted")
    func interruptWithoutState() {
        let sink = MemoryTerminalSink()
        let line = LiveLine(mode: .plain, style: ProgressStyle(), sink: sink, width: { 80 }, now: { 0 })
        line.finishInterrupted()
        #expect(sink.output == "Interrupted\n")
    }
}
