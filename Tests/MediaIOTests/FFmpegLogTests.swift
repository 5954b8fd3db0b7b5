import Foundation
import Logging
import MediaIO
import TestSupport
import Testing

@Suite("FFmpeg's log through the C trampoline", .ffmpegLog)
struct FFmpegLogTests {
    @Test("inputs opened on several threads at once log whole lines, each with its own context prefix")
    func concurrentLogging() async throws {
        let collector = LogLines()
        FFmpegLog.install(logger: collector.logger, verbose: true)
        let paths = Array(Samples.media.prefix(4))
        try #require(paths.count == 4)
        await withTaskGroup(of: Void.self) { group in
            for round in 0..<3 {
                for path in paths {
                    group.addTask {
                        let thread = Thread {
                            if let input = try? MediaInput(url: path) {
                                for _ in 0..<(20 + round) { _ = try? input.readPacket() }
                            }
                        }
                        thread.start()
                        while !thread.isFinished { try? await Task.sleep(for: .milliseconds(5)) }
                    }
                }
            }
        }
        FFmpegLog.install(logger: Logger(label: "ffmpeg-test") { _ in SwiftLogNoOpLogHandler() }, verbose: false)
        let lines = collector.messages
        #expect(lines.count > 20)
        for line in lines where line.contains(" @ 0x") {
            // The prefix decision is shared state: a race would glue two lines or drop a prefix.
            #expect(line.hasPrefix("["), "\(line)")
            #expect(line.components(separatedBy: " @ 0x").count == 2, "\(line)")
        }
    }

    /// Reads every packet of `path` on a thread of its own, with `body` around the reads.
    static func readAll(_ path: String, around body: @escaping @Sendable (() -> Void) -> Void = { $0() }) async {
        let thread = Thread {
            body {
                guard let input = try? MediaInput(url: path) else { return }
                while (try? input.readPacket()) != nil {}
            }
        }
        thread.start()
        while !thread.isFinished { try? await Task.sleep(for: .milliseconds(5)) }
    }

    @Test("a parser's line is named after its codec ([h264 @ 0x...]), not [NULL @ 0x...] (an AVCodecContext without an opened codec)")
    func parserContextNamed() async throws {
        let damaged = try Samples.damagedH264Copy()
        defer { try? FileManager.default.removeItem(at: damaged) }
        let collector = LogLines()
        FFmpegLog.install(logger: collector.logger, verbose: false)
        await Self.readAll(damaged.path)
        FFmpegLog.install(logger: Logger(label: "ffmpeg-test") { _ in SwiftLogNoOpLogHandler() }, verbose: false)
        let lines = collector.messages
        let nal = lines.filter { $0.contains("Invalid NAL unit size") }
        #expect(!nal.isEmpty, "\(lines)")
        for line in nal { #expect(line.hasPrefix("[h264 @ 0x"), "\(line)") }
        #expect(!lines.contains { $0.hasPrefix("[NULL") }, "\(lines)")
    }

    @Test("withLogger sends the lines logged on its thread to its logger, not to the installed one")
    func threadLogger() async throws {
        let damaged = try Samples.damagedH264Copy()
        defer { try? FileManager.default.removeItem(at: damaged) }
        let installed = LogLines()
        let own = LogLines()
        FFmpegLog.install(logger: installed.logger, verbose: false)
        let logger = own.logger
        await Self.readAll(damaged.path) { read in FFmpegLog.withLogger(logger) { read() } }
        let afterwards = own.messages.count
        await Self.readAll(damaged.path)
        FFmpegLog.install(logger: Logger(label: "ffmpeg-test") { _ in SwiftLogNoOpLogHandler() }, verbose: false)
        #expect(own.messages.contains { $0.contains("Invalid NAL unit size") })
        // The first read's lines went to its own logger only; the second read's to the installed one (which is
        // the process's: a test reading damaged media in parallel may add lines of its own, never fewer).
        #expect(own.messages.count == afterwards)
        let second = installed.messages.filter { $0.contains("Invalid NAL unit size") }.count
        #expect(second > 0 && second >= own.messages.filter { $0.contains("Invalid NAL unit size") }.count)
    }
}
