import Foundation
import TestSupport

extension CheckServers {
    /// The fixtures directory (helper scripts).
    static var fixtures: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    }
}

/// `Fixtures/fault_server.py`: an HTTP server that misbehaves on purpose (see the script's header);
/// `script` picks another server of the same kind (`escape_server.py`, `hostile_server.py`).
final class FaultServer {
    let port: Int
    private let process: Process
    private let input: Pipe

    /// Starts `script` (in Fixtures) serving `root` (default: the samples).
    init(script: String = "fault_server.py", root: String = CheckServers.samples) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", CheckServers.fixtures.appendingPathComponent(script).path, "--root", root]
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line is "PORT <n>".
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != UInt8(ascii: "\n") {
            line.append(first)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
            process.terminate()
            throw CheckServers.ServerError("\(script) did not report its port (got '\(text)')")
        }
        self.port = port
        self.process = process
        self.input = input
    }

    deinit {
        // Closing its stdin ends the script; SIGTERM in case it is stuck.
        try? input.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
    }

    /// `http://127.0.0.1:<port>/<path>`.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }
}
