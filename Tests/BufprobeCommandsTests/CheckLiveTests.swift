import Foundation
import Testing
import TestSupport

/// A live HLS stream from `fault_server.py`: the playlist grows by one segment every 2 s.
@Suite("bufprobe check on a live stream")
struct CheckLiveTests {
    @Test("a live HLS stream is sampled for --duration, reported live and not complete, and passes when it keeps up")
    func liveIsSampled() throws {
        let server = try FaultServer()
        let result = try BufprobeProcess.run(["check", "--json", "--duration", "3", server.url("live/hls/low/index.m3u8")])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try CheckDocument.decode(result.stdout)
        #expect(document.verdict == "pass", "\(document.reason)")
        #expect(document.live)
        #expect(!document.complete)
        #expect(document.sampledDuration >= 3)
        #expect(document.stallCount == 0)
        // Three 2 s segments were there from the start: at least 6 s of media arrived.
        let received = document.loadedRanges.reduce(0) { $0 + $1[1] - $1[0] }
        #expect(received >= 5.9, "\(document.loadedRanges)")
    }

    @Test("MPEG-TS over UDP (ffmpeg -re sending to 127.0.0.1) is a live input: sampled for --duration, never complete")
    func udpIsLive() throws {
        let port = try CheckServers.freePort()
        let sender = Process()
        sender.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        sender.arguments = [
            "ffmpeg", "-nostdin", "-v", "error", "-re", "-stream_loop", "-1", "-i", BufprobeProcess.sample("h264-aac.ts"),
            "-c", "copy", "-f", "mpegts", "udp://127.0.0.1:\(port)?pkt_size=1316",
        ]
        sender.standardOutput = FileHandle.nullDevice
        sender.standardError = FileHandle.nullDevice
        try sender.run()
        defer {
            // SIGKILL: a child of the test process inherits its blocked SIGTERM and SIGINT.
            kill(sender.processIdentifier, SIGKILL)
            sender.waitUntilExit()
        }
        let result = try BufprobeProcess.run(
            ["check", "--json", "--duration", "4", "--timeout", "3", "udp://127.0.0.1:\(port)"], timeout: 20)
        let document = try CheckDocument.decode(result.stdout)
        // Pass, or degraded if the sender fell behind on a busy machine; never a failure.
        #expect(result.status != 2, "\(document.reason)")
        #expect(document.live)
        #expect(!document.complete)
        #expect(document.sampledDuration >= 4)
        #expect(!document.loadedRanges.isEmpty)
    }
}
