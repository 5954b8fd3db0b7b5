public import Foundation

/// Runs the real `bufprobe` binary built next to the test bundle, as a user would.
public struct BufprobeProcess {
    /// What a finished run left behind.
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        /// The process's peak resident memory (`VmHWM`, kB), as last read while it ran (it only grows), when
        /// it could be read.
        public var peakResidentKilobytes: Int?
    }

    /// `<package>` root, from this file's path.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `<package>/samples/<name>`.
    public static func sample(_ name: String) -> String { packageRoot.appendingPathComponent("samples/\(name)").path }

    /// The built executable: beside the test bundle (`swift test` builds it), else the debug build.
    public static let executable: URL = {
        let bundleDirectory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        for candidate in [
            bundleDirectory.appendingPathComponent("bufprobe"),
            packageRoot.appendingPathComponent(".build/debug/bufprobe"),
        ] where FileManager.default.isExecutableFile(atPath: candidate.path) {
            return candidate
        }
        return bundleDirectory.appendingPathComponent("bufprobe")
    }()

    /// Runs bufprobe with `arguments`, waiting at most `timeout` seconds (then kills it and records 137);
    /// standard input is the file at `standardInput`, or empty.
    public static func run(
        _ arguments: [String], environment: [String: String] = [:], timeout: Double = 120,
        standardInput: String? = nil
    ) throws -> Result {
        try run(executable, arguments, environment: environment, timeout: timeout, standardInput: standardInput)
    }

    /// Runs `program` (another program than bufprobe: a shell running the README's commands) as `run`
    /// runs bufprobe, in `directory` when given.
    public static func run(
        _ program: URL, _ arguments: [String], environment: [String: String] = [:], timeout: Double = 120,
        standardInput: String? = nil, directory: URL? = nil
    ) throws -> Result {
        var peak: Int?
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        if let standardInput {
            guard let handle = FileHandle(forReadingAtPath: standardInput) else { throw CocoaError(.fileNoSuchFile) }
            process.standardInput = handle
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        try process.run()
        // Drain both pipes concurrently so a chatty child never blocks on a full pipe.
        let group = DispatchGroup()
        nonisolated(unsafe) var stdoutData = Data()
        nonisolated(unsafe) var stderrData = Data()
        DispatchQueue.global().async(group: group) { stdoutData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { stderrData = err.fileHandleForReading.readDataToEndOfFile() }
        let deadline = Date().addingTimeInterval(timeout)
        let status = "/proc/\(process.processIdentifier)/status"
        while process.isRunning, Date() < deadline {
            if let text = try? String(contentsOfFile: status, encoding: .utf8),
                let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
            {
                peak = kilobytes
            }
            usleep(10_000)
        }
        if process.isRunning {
            process.terminate()
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        group.wait()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: stderrData, as: UTF8.self), peakResidentKilobytes: peak)
    }
}
