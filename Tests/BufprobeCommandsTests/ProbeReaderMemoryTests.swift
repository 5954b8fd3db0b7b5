import BufprobeCommands
import Foundation
import Testing
import TestSupport
import BufprobeOutput
import ProbeEngine

@Suite("ProbeReader over bytes in memory (the fuzz target's way in)")
struct ProbeReaderMemoryTests {
    @Test(
        "bytes in memory give the report the file gives: streams, ranges, needs, fast start, warnings",
        arguments: ["h264-aac-moov-at-end.mp4", "truncated.ts", "vp9-opus.mkv"])
    func memoryReportMatchesFile(name: String) throws {
        let path = BufprobeProcess.sample(name)
        var fromFile = ProbeReader(source: path).read()
        var reader = ProbeReader(source: path)
        reader.bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        var fromMemory = reader.read()
        #expect(fromMemory.outcome == fromFile.outcome)
        fromFile.report.readTime = 0
        fromMemory.report.readTime = 0
        #expect(try JSONOutput.string(fromMemory.report) == JSONOutput.string(fromFile.report))
    }

    @Test("a name with bytes is never opened as a file")
    func nameIsNotOpened() throws {
        var reader = ProbeReader(source: BufprobeProcess.sample("h264-aac.mp4"))
        reader.bytes = Array("not media at all".utf8)
        let (report, outcome) = reader.read()
        #expect(outcome == .unreadable)
        #expect(report.streams.isEmpty)
    }
}
