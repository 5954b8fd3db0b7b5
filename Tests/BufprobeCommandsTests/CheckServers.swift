import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Local servers the check tests start on 127.0.0.1 and stop when the test ends (nothing else is ever
/// contacted).
enum CheckServers {
    /// A port nothing listens on right now: bind port 0, read what the kernel chose, close.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError("socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw ServerError("bind() to a free port failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// The samples directory.
    static var samples: String { Samples.directory.path }

    /// The fixtures directory (helper scripts).
    static var fixtures: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    }

    /// A fresh temporary directory.
    static func temporaryDirectory(_ prefix: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    struct ServerError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

/// nginx (Debian nginx-light) serving `samples/` on 127.0.0.1: `/` at full speed and `/rate/<B>/` at
/// `limit_rate <B>` bytes per second from the first byte (`limit_rate_after 0`).
///
/// nginx 1.22 paces by whole seconds: it may send `rate x (seconds since the request + 1) - sent`
/// bytes, so a throttled body arrives as one `rate`-sized burst at once and another every second.
final class NginxServer {
    let port: Int
    let directory: URL
    private let process: Process

    /// Starts nginx with a location per rate in `rates` (bytes per second) and any `extraRoots`
    /// (URL prefix -> directory) served as is.
    init(rates: [Int] = [], extraRoots: [String: URL] = [:]) throws {
        directory = try CheckServers.temporaryDirectory("bufprobe-nginx")
        var lastError = "nginx did not start"
        for _ in 0..<5 {
            let port = try CheckServers.freePort()
            let conf = Self.configuration(port: port, prefix: directory.path, rates: rates, extraRoots: extraRoots)
            let confURL = directory.appendingPathComponent("nginx.conf")
            try conf.write(to: confURL, atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
            // -e: without it nginx first opens its compiled-in /var/log/nginx/error.log, which a
            // non-root user cannot write.
            process.arguments = [
                "-c", confURL.path, "-p", directory.path + "/", "-e", directory.appendingPathComponent("error.log").path,
                "-g", "daemon off;",
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            for _ in 0..<200 where process.isRunning && !CheckServers.accepts(port: port) { usleep(10_000) }
            if process.isRunning, CheckServers.accepts(port: port) {
                self.port = port
                self.process = process
                return
            }
            process.terminate()
            process.waitUntilExit()
            lastError = (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8)) ?? lastError
        }
        throw CheckServers.ServerError(lastError)
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    /// `http://127.0.0.1:<port>/<path>`.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    /// `http://127.0.0.1:<port>/rate/<bytes>/<path>`.
    func url(_ path: String, bytesPerSecond: Int) -> String { url("rate/\(bytesPerSecond)/\(path)") }

    /// The request paths nginx logged so far.
    func requestedPaths() -> [String] {
        let log = (try? String(contentsOf: directory.appendingPathComponent("access.log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").compactMap { line in
            guard let start = line.range(of: "\"GET ") else { return nil }
            return line[start.upperBound...].split(separator: " ").first.map(String.init)
        }
    }

    private static func configuration(port: Int, prefix: String, rates: [Int], extraRoots: [String: URL]) -> String {
        let user = getuid() == 0 ? "user root;\n" : ""
        let locations = rates.map { rate in
            "        location /rate/\(rate)/ { alias \(CheckServers.samples)/; limit_rate \(rate); limit_rate_after 0; }\n"
        }.joined()
        let roots = extraRoots.map { prefix, url in
            "        location /\(prefix)/ { alias \(url.path)/; }\n"
        }.joined()
        return """
            \(user)worker_processes 1;
            pid \(prefix)/nginx.pid;
            error_log \(prefix)/error.log;
            events { worker_connections 64; }
            http {
                access_log \(prefix)/access.log;
                client_body_temp_path \(prefix)/body;
                proxy_temp_path \(prefix)/proxy;
                fastcgi_temp_path \(prefix)/fastcgi;
                uwsgi_temp_path \(prefix)/uwsgi;
                scgi_temp_path \(prefix)/scgi;
                types { video/mp4 mp4; application/vnd.apple.mpegurl m3u8; video/mp2t ts; audio/wav wav; }
                server {
                    listen 127.0.0.1:\(port);
                    root \(CheckServers.samples);
            \(locations)\(roots)    }
            }

            """
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
