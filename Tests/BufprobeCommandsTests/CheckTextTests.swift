import Foundation
import Testing
import TestSupport

/// `bufprobe check`'s text summary prints what was measured, not a column of n/a.
@Suite("check's text summary")
struct CheckTextTests {
    @Test("a check that failed before any data arrived prints its verdict and reason, no n/a and no stalls line")
    func failedCheck() throws {
        let server = try FaultServer()
        let result = try BufprobeProcess.run(["check", server.url("status/404/h264-aac.mp4")])
        #expect(result.status == 2, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2, "\(result.stdout)")
        #expect(lines.last?.contains("verdict:     FAIL: ") == true && lines.last?.contains("404") == true, "\(result.stdout)")
        #expect(!result.stdout.contains("n/a") && !result.stdout.contains("stalls"), "\(result.stdout)")
    }

    @Test("a check that played prints timing, what was received, the bit rates, the stalls and the loaded ranges")
    func passedCheck() throws {
        let server = try FaultServer()
        let result = try BufprobeProcess.run(["check", server.url("file/h264-aac.mp4")])
        #expect(result.status == 0, "\(result.stderr)")
        for label in ["verdict:     PASS", "timing:      open ", "startup ", "received:    ", "bit rate:    ", "stalls:      none", "loaded:      "] {
            #expect(result.stdout.contains(label), "\(label): \(result.stdout)")
        }
        #expect(!result.stdout.contains("n/a"), "\(result.stdout)")
    }
}
