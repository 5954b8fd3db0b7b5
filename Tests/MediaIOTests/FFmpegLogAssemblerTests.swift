import MediaIO
import Testing

@Suite("FFmpeg's log pieces joined into lines")
struct FFmpegLogAssemblerTests {
    @Test("a line logged in two calls is one line with the more severe level; other threads do not mix in")
    func joinsPieces() throws {
        var assembler = FFmpegLogAssembler()
        #expect(assembler.add(level: 24, text: "[mpegts] Packet corrupt (stream = 0, dts = 9000)", thread: 1) == nil)
        // Another thread's whole line meanwhile is its own.
        let whole = assembler.add(level: 16, text: "[hls] HTTP error 404\n", thread: 2)
        let other = try #require(whole)
        #expect(other.line == "[hls] HTTP error 404" && other.level == 16)
        let end = assembler.add(level: 32, text: ".\n", thread: 1)
        let joined = try #require(end)
        #expect(joined.line == "[mpegts] Packet corrupt (stream = 0, dts = 9000).")
        #expect(joined.level == 24)
        let after = assembler.add(level: 32, text: "next\r\n", thread: 1)
        let next = try #require(after)
        #expect(next.line == "next", "the finished piece was forgotten")
    }

    @Test("a line that never ends is cut at the maximum length instead of growing")
    func bounded() throws {
        var assembler = FFmpegLogAssembler()
        let piece = String(repeating: "x", count: 1000)
        var out: (level: Int32, line: String)?
        for _ in 0..<10 where out == nil { out = assembler.add(level: 24, text: piece, thread: 7) }
        #expect(out?.line.count == FFmpegLogAssembler.maximumLength)
    }
}
