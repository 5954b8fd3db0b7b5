import Foundation
import Synchronization
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The real `bufprobe serve` on 127.0.0.1, on a port the kernel picks (`--listen 127.0.0.1:0`, read back
/// from its startup line). Killed when dropped.
final class ServeProcess {
    let port: Int
    private let process: Process
    private let log = Log()
    private let reader: Thread

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts `bufprobe serve` with `arguments` and waits (at most 20 s) for its startup line.
    init(_ arguments: [String] = []) throws {
        let process = Process()
        process.executableURL = BufprobeProcess.executable
        process.arguments = ["serve", "--listen", "127.0.0.1:0"] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        let log = self.log
        let handle = errors.fileHandleForReading
        let reader = Thread {
            // availableData returns what the pipe holds (read(upToCount:) waits for the whole count).
            while case let data = handle.availableData, !data.isEmpty {
                log.append(String(decoding: data, as: UTF8.self))
            }
        }
        try process.run()
        reader.start()
        self.process = process
        self.reader = reader
        let deadline = Date().addingTimeInterval(20)
        var port: Int?
        while port == nil, Date() < deadline, process.isRunning {
            port = Self.port(in: log.text)
            if port == nil { usleep(20_000) }
        }
        guard let port else {
            process.terminate()
            throw Failure(description: "serve did not start: \(log.text)")
        }
        self.port = port
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// The process id.
    var pid: Int32 { process.processIdentifier }

    /// Everything it wrote on stderr so far.
    var stderr: String { log.text }

    /// Whether its stderr contains `text` within `timeout` seconds: a log line is written before the answer
    /// it logs, but the test's reader thread may not have read it when the answer arrives.
    func logged(_ text: String, within timeout: Double = 5) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !log.text.contains(text) {
            guard Date() < deadline else { return false }
            usleep(20_000)
        }
        return true
    }

    /// Sends `signal`.
    func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Its exit status once it exited within `timeout` seconds, else nil.
    func exitStatus(within timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        guard !process.isRunning else { return nil }
        return process.terminationStatus
    }

    /// `GET path` on the exporter.
    func get(_ path: String, headers: [String: String] = [:], timeout: Double = 30) throws -> HTTPClient.Response {
        try HTTPClient.get(port: port, path, headers: headers, timeout: timeout)
    }

    /// The exporter's own metrics.
    func metrics() throws -> Exposition { try Exposition(get("/metrics").body) }

    /// Kilobytes of the highest resident set size so far (`VmHWM`), from /proc.
    func peakResidentKilobytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }

    /// What the process wrote on stderr, filled by the reader thread.
    private final class Log: Sendable {
        private let storage = Mutex("")
        func append(_ text: String) { storage.withLock { $0 += text } }
        var text: String { storage.withLock { $0 } }
    }

    private static func port(in log: String) -> Int? {
        guard let range = log.range(of: "serving on 127.0.0.1:") else { return nil }
        return Int(log[range.upperBound...].prefix { $0.isNumber })
    }
}
