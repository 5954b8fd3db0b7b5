import Foundation
import Testing
import TestSupport

@Suite("scripts/demo-origin.sh: serves, then stops and cleans up on SIGTERM")
struct DemoOriginTests {
    @Test("it serves samples/, /slow/ at 20,000 bytes/s and a live playlist, and SIGTERM stops nginx and ffmpeg and removes its directory")
    func startsAndStops() throws {
        let origin = try DemoOrigin(port: try CheckServers.freePort())
        try origin.waitForLiveSegments(1)
        let head = try BufprobeProcess.run(
            URL(fileURLWithPath: "/usr/bin/curl"),
            ["-s", "-o", "/dev/null", "-w", "%{http_code} %{size_download}", "http://127.0.0.1:\(origin.port)/h264-aac.mp4"])
        #expect(head.stdout.hasPrefix("200 "))
        // Two seconds of /slow/: nginx sends about 20,000 bytes a second (a burst per second, so 40-60 kB).
        let slow = try BufprobeProcess.run(
            URL(fileURLWithPath: "/usr/bin/curl"),
            ["-s", "-o", "/dev/null", "-m", "2", "-w", "%{size_download}", "http://127.0.0.1:\(origin.port)/slow/h264-aac.mp4"])
        let received = Int(slow.stdout) ?? 0
        #expect((20_000...70_000).contains(received), "\(received) bytes in 2 s")
        #expect(try FileManager.default.contentsOfDirectory(atPath: origin.temporary.path).count == 1)
        #expect(origin.stop() == 143)
        #expect(!CheckServers.accepts(port: origin.port))
        #expect(try FileManager.default.contentsOfDirectory(atPath: origin.temporary.path).isEmpty)
    }
}
