import Logging
import Testing
import ProgressLine

@Suite("Log lines above the live line")
struct LogHandlerTests {
    @Test("a log message is printed above the line as label: level: message key=value")
    func logAbove() {
        let sink = MemoryTerminalSink()
        let line = LiveLine(mode: .tty, style: ProgressStyle(glyphs: .ascii), sink: sink, width: { 41 }, now: { 0 })
        line.show()
        line.update(ProgressSnapshot(state: .reading, currentTime: 1, duration: 10))
        sink.clear()
        var logger = Logger(label: "ffmpeg") { LiveLineLogHandler(label: $0, line: line) }
        logger[metadataKey: "stream"] = "0"
        logger.warning("Invalid NAL unit size", metadata: ["pts": "12"])
        logger.debug("hidden below info")
        let frame = render(ProgressSnapshot(state: .reading, currentTime: 1, duration: 10), width: 40, style: ProgressStyle(glyphs: .ascii))
        #expect(sink.writes == ["\r\u{1B}[Kffmpeg: warning: Invalid NAL unit size pts=12 stream=0\n\r" + frame + "\u{1B}[K\r"])
    }

    @Test("with no line the handler writes the line to its fallback sink")
    func fallback() {
        let sink = MemoryTerminalSink()
        let handler = LiveLineLogHandler(label: "bufprobe", line: nil, fallback: sink)
        if LiveLine.current == nil {
            let logger = Logger(label: "bufprobe") { _ in handler }
            logger.error("cannot open")
            #expect(sink.output == "bufprobe: error: cannot open\n")
        }
        #expect(LiveLineLogHandler.format(label: "a", level: .notice, message: "m", metadata: [:]) == "a: notice: m")
    }
}
