import Foundation
import Testing
import TestSupport

/// The parts of `probe --json` the hostile-input tests read.
private struct ProbeFigures: Decodable {
    struct Stream: Decodable {
        var index: Int
        var type: String
        var packets: Int
    }
    var streams: [Stream]
    var complete: Bool
    var warnings: [String]
    var error: String?

    static func decode(_ text: String) throws -> ProbeFigures {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(ProbeFigures.self, from: Data(text.utf8))
    }
}

/// Issue 10's hostile files and servers: no crash, no hang, an answer within the bounds.
@Suite("hostile input and faults")
struct HostileInputTests {
    @Test("a stream that appears after opening (a new MPEG-TS PID) is counted like ffprobe counts it")
    func streamAddedWhileReading() throws {
        let media = try HostileMedia()
        defer { media.remove() }
        let path = try media.newPIDs()
        let reference = try Samples.ffprobe(path)
        #expect(reference.packets.count == 3)
        let result = try BufprobeProcess.run(["probe", "--json", path])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try ProbeFigures.decode(result.stdout)
        #expect(document.streams.count == reference.packets.count)
        for stream in document.streams {
            #expect(stream.packets == reference.packets[stream.index], "stream \(stream.index)")
        }
        let check = try BufprobeProcess.run(["check", "--progress", "none", path])
        #expect(check.status == 0, "\(check.stderr)")
    }
}
