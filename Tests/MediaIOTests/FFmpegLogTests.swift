import Foundation
import Logging
import MediaIO
import Synchronization
import TestSupport
import Testing

/// Collects every log line, from any thread.
private final class LineCollector: Sendable {
    let lines = Mutex<[String]>([])

    var handler: any LogHandler { Handler(collector: self) }

    struct Handler: LogHandler {
        let collector: LineCollector
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            collector.lines.withLock { $0.append("\(event.message)") }
        }
    }
}

@Suite("FFmpeg's log through the C trampoline", .ffmpegLog)
struct FFmpegLogTests {
    @Test("inputs opened on several threads at once log whole lines, each with its own context prefix")
    func concurrentLogging() async throws {
        let collector = LineCollector()
        FFmpegLog.install(logger: Logger(label: "ffmpeg-test") { _ in collector.handler }, verbose: true)
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
        let lines = collector.lines.withLock { $0 }
        #expect(lines.count > 20)
        for line in lines where line.contains(" @ 0x") {
            // The prefix decision is shared state: a race would glue two lines or drop a prefix.
            #expect(line.hasPrefix("["), "\(line)")
            #expect(line.components(separatedBy: " @ 0x").count == 2, "\(line)")
        }
    }
}
