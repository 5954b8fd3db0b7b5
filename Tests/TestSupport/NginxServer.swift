public import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// nginx (Debian nginx-light) serving `samples/` on 127.0.0.1: `/` at full speed and `/rate/<B>/` at
/// `limit_rate <B>` bytes per second from the first byte (`limit_rate_after 0`).
///
/// nginx 1.22 paces by whole seconds: it may send `rate x (seconds since the request + 1) - sent`
/// bytes, so a throttled body arrives as one `rate`-sized burst at once and another every second.
public final class NginxServer {
    /// The port it listens on.
    public let port: Int
    /// Its prefix directory (configuration, logs).
    public let directory: URL
    private let process: Process

    /// Starts nginx with a location per rate in `rates` (bytes per second) serving `ratedRoot` (`samples/`
    /// unless given), any `extraRoots` (URL prefix -> directory) served as is, and each extra root also at
    /// `/rate/<B>/<prefix>/` for every rate in `rates`.
    public init(rates: [Int] = [], extraRoots: [String: URL] = [:], ratedRoot: URL? = nil) throws {
        directory = try CheckServers.temporaryDirectory("bufprobe-nginx")
        var lastError = "nginx did not start"
        for _ in 0..<5 {
            let port = try CheckServers.freePort()
            let conf = try Self.configuration(
                port: port, prefix: directory.path, rates: rates, extraRoots: extraRoots,
                ratedRoot: ratedRoot?.path ?? CheckServers.samples)
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
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    /// `http://127.0.0.1:<port>/rate/<bytes>/<path>`.
    public func url(_ path: String, bytesPerSecond: Int) -> String { url("rate/\(bytesPerSecond)/\(path)") }

    /// The request paths nginx logged so far.
    /// The access log's lines so far (nginx's `combined` format: the request line, then the status, the
    /// size, the referrer and the user agent in quotes).
    public func accessLogLines() -> [String] {
        let log = (try? String(contentsOf: directory.appendingPathComponent("access.log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").map(String.init)
    }

    public func requestedPaths() -> [String] {
        let log = (try? String(contentsOf: directory.appendingPathComponent("access.log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").compactMap { line in
            guard let start = line.range(of: "\"GET ") else { return nil }
            return line[start.upperBound...].split(separator: " ").first.map(String.init)
        }
    }

    /// The demo origin's configuration template (`scripts/demo-origin/nginx.conf.in`), the one nginx
    /// configuration of the tests and `scripts/demo-origin.sh`.
    public static let template = BufprobeProcess.packageRoot.appendingPathComponent("scripts/demo-origin/nginx.conf.in")

    private static func configuration(
        port: Int, prefix: String, rates: [Int], extraRoots: [String: URL], ratedRoot: String
    ) throws -> String {
        let locations = rates.map { rate in
            "        location /rate/\(rate)/ { alias \(ratedRoot)/; limit_rate \(rate); limit_rate_after 0; }\n"
        }.joined()
        let roots = extraRoots.map { prefix, url in
            "        location /\(prefix)/ { alias \(url.path)/; }\n"
                + rates.map { rate in
                    "        location /rate/\(rate)/\(prefix)/ { alias \(url.path)/; limit_rate \(rate); limit_rate_after 0; }\n"
                }.joined()
        }.joined()
        let fields = [
            "@USER@": getuid() == 0 ? "user root;\n" : "", "@PREFIX@": prefix, "@PORT@": String(port),
            "@ROOT@": CheckServers.samples, "@LOCATIONS@": locations + roots,
        ]
        return fields.reduce(try String(contentsOf: template, encoding: .utf8)) { text, field in
            text.replacingOccurrences(of: field.key, with: field.value)
        }
    }
}
