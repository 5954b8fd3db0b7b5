import BufprobeCommands
@testable import CheckEngine
import MediaIO
import Foundation
import Testing
import TestSupport

/// Names under `.invalid` never resolve (RFC 2606), so these need no network.
@Suite("A host that does not resolve is named")
struct UnresolvedHostTests {
    @Test("FFmpeg's resolver line gives the host")
    func parsesResolverLine() {
        var lines = FFmpegLines()
        lines.record(FFmpegLogLine(level: .error, line: "[http @ 0x1] HTTP error 404 Not Found"))
        #expect(lines.unresolvedHost == nil)
        lines.record(FFmpegLogLine(level: .error, line: "[tcp @ 0x55d0] Failed to resolve hostname nohost.invalid: Name or service not known"))
        #expect(lines.unresolvedHost == "nohost.invalid")
    }

    @Test("probe and check say 'could not resolve host NAME', exit 2", arguments: ["probe", "check"])
    func saysCouldNotResolve(command: String) throws {
        let result = try BufprobeProcess.run([command, "--progress", "none", "http://nohost.invalid/a.ts"], timeout: 60)
        #expect(result.status == 2)
        #expect(result.stderr.contains(
            "error: http://nohost.invalid/a.ts could not be opened: could not resolve host nohost.invalid"), "\(result.stderr)")
        #expect(!result.stderr.contains("Input/output error"))
    }
}
