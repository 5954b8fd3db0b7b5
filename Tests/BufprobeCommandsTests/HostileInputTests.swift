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

/// Issue 10's time bounds: every wait on a peer ends within `--timeout` + 1 s.
@Suite("hostile servers: time bounds")
struct HostileTimeBoundTests {
    @Test("probe gives up on a server that accepts and never answers, after --timeout")
    func probeTimesOut() throws {
        let server = try FaultServer()
        let result = try BufprobeProcess.run(["probe", "--json", "--timeout", "2", server.url("silent/h264-aac.mp4")], timeout: 3)
        #expect(result.status == 2, "\(result.stderr)")
        let document = try ProbeFigures.decode(result.stdout)
        #expect(document.error?.contains("--timeout") == true, "\(document.error ?? "")")
    }

    @Test("a live HLS playlist that never grows stops check within --timeout + 1 s of the last media")
    func stalledLivePlaylist() throws {
        let server = try FaultServer(script: "hostile_server.py")
        // The three segments arrive at once; then only playlist reloads, which bring nothing new.
        let result = try BufprobeProcess.run(
            ["check", "--json", "--timeout", "2", server.url("stalled/hls/low/index.m3u8")], timeout: 3.5)
        #expect(result.status == 2, "\(result.stderr)")
        let document = try CheckDocument.decode(result.stdout)
        #expect(document.reason.contains("--timeout"), "\(document.reason)")
        #expect(document.sampledDuration <= 3, "sampled \(document.sampledDuration) s")
    }

    @Test("probe reads a stalled live playlist up to --timeout, then reports it incomplete (exit 3)")
    func probeStalledLivePlaylist() throws {
        let server = try FaultServer(script: "hostile_server.py")
        let result = try BufprobeProcess.run(
            ["probe", "--json", "--timeout", "2", server.url("stalled/hls/low/index.m3u8")], timeout: 3.5)
        #expect(result.status == 3, "\(result.stderr)")
        let document = try ProbeFigures.decode(result.stdout)
        #expect(!document.complete)
        #expect(document.warnings.contains { $0.contains("--timeout") }, "\(document.warnings)")
    }
}
