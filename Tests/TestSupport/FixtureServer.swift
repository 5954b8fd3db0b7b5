public import Foundation

/// A Python server from `Tests/BufprobeCommandsTests/Fixtures` (fault, escape, hostile, origin...): started
/// with its arguments, its port read from the first line it prints (`PORT <n>`), stopped when released
/// (closing its stdin ends the script; SIGTERM in case it is stuck). The one way the test targets start one.
public final class FixtureServer {
    /// The port it listens on.
    public let port: Int
    private let process: Process
    private let input: Pipe

    /// The fixtures directory.
    public static let fixtures = BufprobeProcess.packageRoot.appendingPathComponent("Tests/BufprobeCommandsTests/Fixtures")

    /// Starts `script` (a file name in the fixtures directory) with `arguments`.
    public init(script: String, arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.fixtures.appendingPathComponent(script).path] + arguments
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != UInt8(ascii: "\n") {
            line.append(first)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
            process.terminate()
            throw CheckServers.ServerError("\(script) \(arguments.joined(separator: " ")) did not report its port (got '\(text)')")
        }
        self.port = port
        self.process = process
        self.input = input
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
    }
}
