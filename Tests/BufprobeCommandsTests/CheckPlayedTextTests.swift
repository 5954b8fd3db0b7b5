import Foundation
import Testing
import TestSupport

@Suite("check's text says what 'played' means")
struct CheckPlayedTextTests {
    @Test("a fast VOD check says the rest was played out from the buffer")
    func fastVODPlayedOut() throws {
        let result = try BufprobeProcess.run(["check", "--progress", "none", BufprobeProcess.sample("h264-aac.mp4")])
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(result.stdout.split(separator: "\n").first { $0.contains("played:") })
        #expect(line.contains("10.000 s (all data in after "), "\(line)")
        #expect(line.contains("played out from the buffer, no real-time wait"), "\(line)")
    }
}
