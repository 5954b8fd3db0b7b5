import Foundation
import Testing
import TestSupport

/// `validate --deny-private`: the request policy `check --deny-private` applies holds for every request the
/// validation makes, the input, the playlists and segments it names, and their redirects.
@Suite("validate --deny-private")
struct ValidateDenyPrivateTests {
    @Test func loopbackInputIsRefusedWithOneSentenceAndExitTwo() throws {
        let folder = try ValidateFixtures.clean(.ts)
        defer { try? FileManager.default.removeItem(at: folder) }
        let nginx = try NginxServer(extraRoots: ["stream": folder])
        let url = nginx.url("stream/master.m3u8")
        let result = try BufprobeProcess.run(["validate", "--deny-private", url], timeout: 60)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains(url))
        #expect(result.stderr.contains("--deny-private refuses"), "\(result.stderr)")
        #expect(nginx.requestedPaths().isEmpty, "nothing was requested")
        // Without the flag the same stream validates.
        #expect(try BufprobeProcess.run(["validate", url], timeout: 60).status == 0)
    }

    @Test func loopbackVariantOfALocalPlaylistIsAReadFindingAndNotRequested() throws {
        let folder = try ValidateFixtures.clean(.ts)
        defer { try? FileManager.default.removeItem(at: folder) }
        let nginx = try NginxServer(extraRoots: ["stream": folder])
        let master = folder.appendingPathComponent("master.m3u8")
        let text = try String(contentsOf: master, encoding: .utf8)
        try text.replacingOccurrences(of: "v2/index.m3u8", with: nginx.url("stream/v2/index.m3u8"))
            .write(to: master, atomically: true, encoding: .utf8)
        let result = try BufprobeProcess.run(["validate", "--deny-private", "--json", master.path], timeout: 60)
        #expect(result.status == 1, "\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let findings = try #require(document["findings"] as? [[String: Any]])
        let read = try #require(findings.first { $0["rule"] as? String == "bufprobe:read" })
        #expect((read["message"] as? String ?? "").contains("--deny-private refuses"), "\(read)")
        #expect(nginx.requestedPaths().isEmpty)
    }
}
