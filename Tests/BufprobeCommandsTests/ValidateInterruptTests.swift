import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `validate` interrupted (Ctrl-C) while it reads: every request stops at once, the report of what was read
/// is still written (its `not_read` says the run was interrupted), and the exit status is 130.
@Suite("validate: Ctrl-C reports what was read and exits 130")
struct ValidateInterruptTests {
    @Test func interruptedValidationReportsWhatWasReadAndExits130() throws {
        let folder = try ValidateFixtures.clean(.ts)
        defer { try? FileManager.default.removeItem(at: folder) }
        // 4,000 bytes/s: each ~50 kB segment takes over 10 s, so the run is mid-read when interrupted.
        let nginx = try NginxServer(rates: [4_000], extraRoots: ["stream": folder])
        let process = Process()
        process.executableURL = BufprobeProcess.executable
        process.arguments = ["validate", "--json", nginx.url("stream/master.m3u8", bytesPerSecond: 4_000)]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        // The handler is installed before the first request. nginx logs a request when it ends: once both
        // media playlists are in, the segment requests start; a second later they are mid-body.
        let deadline = Date().addingTimeInterval(30)
        while nginx.requestedPaths().filter({ $0.hasSuffix("index.m3u8") }).count < 2, Date() < deadline { usleep(50_000) }
        usleep(1_000_000)
        kill(process.processIdentifier, SIGINT)
        let sent = Date()
        let stdout = try output.fileHandleForReading.readToEnd() ?? Data()
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(Date().timeIntervalSince(sent) < 10, "every request stopped at once, not after its segment")
        let document = try #require(try JSONSerialization.jsonObject(with: stdout) as? [String: Any])
        let notRead = try #require(document["not_read"] as? [String])
        #expect(notRead.contains { $0.contains("the run was interrupted") }, "\(notRead)")
        let findings = document["findings"] as? [[String: Any]] ?? []
        #expect(!findings.contains { $0["rule"] as? String == "bufprobe:read" }, "a cut request is not a read failure: \(findings)")
        #expect((document["segments_read"] as? Int ?? 8) < 8)
    }
}
