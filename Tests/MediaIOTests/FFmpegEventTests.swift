import Foundation
import Logging
@testable import MediaIO
import Synchronization
import Testing
import TestSupport

/// FFmpeg's log read once, at MediaIO's boundary: each line FFmpeg formats becomes an `FFmpegLogLine`
/// whose `FFmpegEvent` says what it means, and `FFmpegLog` delivers those to the thread's observer.
@Suite("FFmpeg's log lines as typed events", .ffmpegLog)
struct FFmpegEventTests {
    @Test("each line bufprobe reads a fact from becomes its event, values parsed", arguments: [
        ("[hls @ 0x55681b40e400] Opening 'http://h/low/seg002.ts' for reading", FFmpegEvent.opening(url: "http://h/low/seg002.ts")),
        ("[http @ 0x55681b419780] HTTP error 404 Not Found", .httpError(status: 404, text: "Not Found")),
        ("[http @ 0x1] HTTP error 503", .httpError(status: 503, text: "")),
        ("[hls @ 0x55681b40e400] Failed to open segment 2 of playlist 0", .segmentFailed(sequence: 2, playlist: 0)),
        ("[http @ 0x563e78029c40] Stream ends prematurely at 100000, should be 267227",
         .prematureEnd(received: 100_000, expected: 267_227)),
        ("[tcp @ 0x55d0] Failed to resolve hostname nohost.invalid: Name or service not known", .unresolvedHost("nohost.invalid")),
        ("[matroska,webm @ 0x5600] File ended prematurely", .fileEndedPrematurely),
        ("[matroska,webm @ 0x5600] File ended prematurely at pos. 188370 (0x2dfd2)", .fileEndedPrematurely),
    ])
    func event(line: String, event: FFmpegEvent) {
        #expect(FFmpegLogLine(level: .info, line: line).event == event)
    }

    @Test("lines that only begin like one, or say something else, carry no event", arguments: [
        "[hls @ 0x1] Opening 'http://h/a.ts' for writing", "[http @ 0x1] HTTP error 40x Huge",
        "[hls @ 0x1] Failed to open segment list 'x'", "[mov,mp4 @ 0x55d0c2a3b980] partial file",
        "HTTP error without a code", "[tcp @ 0x1] Failed to resolve hostname",
    ])
    func noEvent(line: String) {
        #expect(FFmpegLogLine(level: .warning, line: line).event == nil)
    }

    @Test("the text drops the addresses that change every run; warnings and errors are problems")
    func textAndLevel() {
        let line = FFmpegLogLine(level: .warning, line: "[hls @ 0x55681b40e400] [http @ 0xab] HTTP error 404 Not Found")
        #expect(line.text == "[hls] [http] HTTP error 404 Not Found")
        #expect(line.isProblem)
        #expect(!FFmpegLogLine(level: .info, line: "x").isProblem)
    }

    @Test("reading a cut Matroska file delivers its typed event to the reading thread's observer and the kept errors")
    func deliveredToObserver() async throws {
        FFmpegLog.install(logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }, verbose: true)
        let seen = Mutex<[FFmpegLogLine]>([])
        let kept = Mutex<[FFmpegLogLine]>([])
        let path = BufprobeProcess.sample("truncated.mkv")
        let thread = Thread {
            FFmpegLog.clearRecentErrors()
            FFmpegLog.observe { line in seen.withLock { $0.append(line) } }
            if let input = try? MediaInput(url: path) {
                while (try? input.readPacket()) != nil {}
            }
            FFmpegLog.stopObserving()
            kept.withLock { $0 = FFmpegLog.recentErrors() }
        }
        thread.start()
        while !thread.isFinished { try await Task.sleep(for: .milliseconds(5)) }
        FFmpegLog.install(logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }, verbose: false)
        let lines = seen.withLock { $0 }
        #expect(lines.contains { $0.event == .fileEndedPrematurely }, "\(lines.map(\.text))")
        #expect(kept.withLock { $0 }.contains { $0.event == .fileEndedPrematurely })
        // Every line reached the observer without FFmpeg's run-specific addresses.
        #expect(!lines.contains { $0.text.contains(" @ 0x") })
    }
}
