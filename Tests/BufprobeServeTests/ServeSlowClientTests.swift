import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Slow and idle clients cannot lock `serve` out: connections that never finish a request head are closed
/// at the header deadline, the connections from one address and in all are capped, and near the cap the
/// longest-waiting connection makes room, so `/metrics`, `/-/healthy` and `/probe` keep answering.
///
/// "Answers within 1 s" is a correctness bound, not a timing measurement: an exporter that answers at
/// all answers these in milliseconds, one that is locked out never does (before this, 64 such connections
/// stopped every answer). The 1 s is each client call's socket timeout (connect, send, receive).
@Suite("serve: slow and idle clients", .serialized)
struct ServeSlowClientTests {
    /// Ten loopback addresses standing in for ten other hosts.
    static let sources = (2...11).map { "127.0.0.\($0)" }

    /// Waits (at most 30 s, with a generous timeout per request) until the exporter's own metrics satisfy
    /// `condition`: the burst of connections has been accepted, so the polls after see the steady state
    /// with every slow connection open, not the kernel's accept queue draining. `false` when they never do.
    static func settle(_ serve: ServeProcess, _ condition: (Exposition) -> Bool) -> Bool {
        let end = Date().addingTimeInterval(30)
        while Date() < end {
            if let own = try? serve.metrics(), condition(own) { return true }
            usleep(200_000)
        }
        return false
    }

    /// Polls `/metrics`, `/-/healthy` and `/probe` (no target: 400) from 127.0.0.1 every 0.25 s for
    /// `seconds`, calling `between` before each round; returns the failures, each a sentence (and, through
    /// `count`, how many polls were made).
    static func poll(_ serve: ServeProcess, for seconds: Double, count: UnsafeMutablePointer<Int>? = nil, between: () -> Void = {}) -> [String] {
        var failures: [String] = []
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            between()
            for (path, status) in [("/metrics", 200), ("/-/healthy", 200), ("/probe", 400)] {
                count?.pointee += 1
                do {
                    let answer = try serve.get(path, timeout: 1)
                    if answer.status != status { failures.append("\(path) answered \(answer.status)") }
                } catch {
                    failures.append("\(path): \(error)")
                }
            }
            usleep(250_000)
        }
        return failures
    }

    @Test("500 connections that send a header byte every 5 s or nothing leave /metrics, /-/healthy and /probe answering within 1 s, and are closed at the 10 s header deadline")
    func slowAndIdleConnectionsDoNotLockTheExporterOut() throws {
        let serve = try ServeProcess()
        let clients = try SlowClients(port: serve.port, count: 500, sources: Self.sources, trickling: 250)
        clients.sendNextByte()
        var lastByte = Date()
        #expect(Self.settle(serve) { $0.value("bufprobe_exporter_connections_peak") ?? 0 >= 500 }, "the 500 connections must be accepted")
        let failures = Self.poll(serve, for: 12) {
            if Date().timeIntervalSince(lastByte) >= 5 {
                clients.sendNextByte()
                lastByte = Date()
            }
        }
        #expect(failures.isEmpty, "\(failures.count) polls failed: \(failures.prefix(5))")
        // The deadline is 10 s from the accept: allow the server 20 s more to have closed them all.
        var closed = clients.closedByServer()
        let deadline = Date().addingTimeInterval(20)
        while closed < 500, Date() < deadline {
            usleep(200_000)
            closed = clients.closedByServer()
        }
        #expect(closed == 500, "the server closed \(closed) of 500 connections that never finished a request head")
        let own = try serve.metrics()
        #expect(own.value("bufprobe_exporter_connections_closed_total", ["reason": "header_timeout"]) ?? 0 >= 500)
        #expect(own.value("bufprobe_exporter_connections_peak") ?? 0 >= 500, "all 500 were admitted (below the caps)")
    }

    @Test("near --max-connections each new connection closes the one that waited longest, so /metrics still answers")
    func theTotalCapEvictsWaitingConnections() throws {
        let serve = try ServeProcess(["--max-connections", "100"])
        let clients = try SlowClients(port: serve.port, count: 500, sources: Self.sources, trickling: 0)
        #expect(Self.settle(serve) { $0.value("bufprobe_exporter_connections_closed_total", ["reason": "evicted"]) ?? 0 >= 400 })
        let failures = Self.poll(serve, for: 3)
        #expect(failures.isEmpty, "\(failures.count) polls failed: \(failures.prefix(5))")
        let own = try serve.metrics()
        let evicted = own.value("bufprobe_exporter_connections_closed_total", ["reason": "evicted"]) ?? 0
        #expect(evicted >= 400, "evicted \(evicted)")
        #expect(own.value("bufprobe_exporter_connections_peak") ?? .infinity <= 100)
        #expect(clients.closedByServer() >= 400)
    }

    @Test("one address holds at most --max-connections-per-client connections: each one more closes that address's longest-waiting one")
    func thePerClientCapEvictsThatAddresssWaitingConnections() throws {
        let serve = try ServeProcess(["--max-connections-per-client", "10"])
        let clients = try SlowClients(port: serve.port, count: 50, sources: ["127.0.0.2"], trickling: 0)
        let failures = Self.poll(serve, for: 1)
        #expect(failures.isEmpty, "\(failures.count) polls failed: \(failures.prefix(5))")
        var closed = clients.closedByServer()
        let deadline = Date().addingTimeInterval(5)
        while closed < 40, Date() < deadline {
            usleep(100_000)
            closed = clients.closedByServer()
        }
        #expect(closed == 40, "the server closed \(closed) of 50 connections from one address with a cap of 10")
        let own = try serve.metrics()
        #expect(own.value("bufprobe_exporter_connections_closed_total", ["reason": "evicted"]) == 40)
        #expect(own.value("bufprobe_exporter_connections_closed_total", ["reason": "per_client_limit"]) == 0)
    }

    @Test("500 trickling and 500 idle connections from the address that also polls leave >= 95 % of /metrics, /-/healthy and /probe polls answered within 1 s from the first second on")
    func slowConnectionsFromThePollersOwnAddress() throws {
        let serve = try ServeProcess()
        // 127.0.0.1: the poller's own address (a NAT, a proxy or a sidecar shared with the slow clients).
        let clients = try SlowClients(port: serve.port, count: 1000, sources: ["127.0.0.1"], trickling: 500)
        clients.sendNextByte()
        var lastByte = Date()
        var polls = 0
        let failures = Self.poll(serve, for: 12, count: &polls) {
            if Date().timeIntervalSince(lastByte) >= 5 {
                clients.sendNextByte()
                lastByte = Date()
            }
        }
        let answered = Double(polls - failures.count) / Double(polls)
        print("serve, 1000 slow connections from the poller's address: \(polls - failures.count) of \(polls) polls answered within 1 s")
        #expect(answered >= 0.95, "\(failures.count) of \(polls) polls failed: \(failures.prefix(5))")
        let own = try serve.metrics()
        #expect(own.value("bufprobe_exporter_connections_closed_total", ["reason": "per_client_limit"]) == 0)
        #expect(own.value("bufprobe_exporter_connections_closed_total", ["reason": "evicted"]) ?? 0 >= 900)
    }

    @Test("a keep-alive connection may wait between requests longer than the header timeout")
    func keepAliveOutlivesTheHeaderTimeout() throws {
        let serve = try ServeProcess(["--header-timeout", "1s"])
        let connection = try KeepAliveConnection(port: serve.port)
        #expect(try connection.get("/-/healthy").hasPrefix("HTTP/1.1 200"))
        usleep(2_500_000)
        #expect(try connection.get("/-/healthy").hasPrefix("HTTP/1.1 200"), "the idle connection must still be open")
    }

    @Test("--header-timeout, --max-connections and --max-connections-per-client are refused outside their ranges", arguments: [
        ["--header-timeout", "0s"], ["--header-timeout", "10m"], ["--max-connections", "0"], ["--max-connections-per-client", "0"],
    ])
    func badClientOptions(_ arguments: [String]) throws {
        let result = try BufprobeProcess.run(["serve"] + arguments, timeout: 20)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(arguments[0]))
    }
}

/// The open-file limit bounds what `serve` accepts to run.
@Suite("serve: open files")
struct ServeOpenFileTests {
    @Test("a hard open-file limit below what --max-parallel and the connection cap need is a usage error naming both")
    func tooFewOpenFiles() throws {
        let process = Process()
        // prlimit (util-linux) sets the soft and hard RLIMIT_NOFILE of the command it runs.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
        process.arguments = ["--nofile=300:300", BufprobeProcess.executable.path, "serve", "--listen", "127.0.0.1:0", "--max-parallel", "100"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 64, "\(text)")
        #expect(text.contains("--max-parallel 100 and 1024 connections need up to 1488 open files, but this process may open 300"), "\(text)")
    }
}

/// One HTTP/1.1 connection kept open between requests, every call bounded by 5 s.
private final class KeepAliveConnection {
    private let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var limit = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw HTTPClient.Failure(description: "connect failed (errno \(errno))") }
    }

    deinit { close(fd) }

    /// Sends `GET path` and returns the response's head and body (the body is short: read until the
    /// Content-Length is complete).
    func get(_ path: String) throws -> String {
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        guard request.withUnsafeBufferPointer({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else {
            throw HTTPClient.Failure(description: "send failed (errno \(errno))")
        }
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let text = String(decoding: data, as: UTF8.self)
            if let end = text.range(of: "\r\n\r\n"),
                let line = text[..<end.lowerBound].split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-length:") }),
                let length = Int(line.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? ""),
                text.utf8.distance(from: end.upperBound.samePosition(in: text.utf8) ?? text.utf8.endIndex, to: text.utf8.endIndex) >= length
            {
                return text
            }
            let count = buffer.withUnsafeMutableBufferPointer { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw HTTPClient.Failure(description: "connection closed or silent (\(count), errno \(errno))") }
            data += buffer[0..<count]
        }
    }
}
