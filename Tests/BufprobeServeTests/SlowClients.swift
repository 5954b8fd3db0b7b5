import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Client connections that hold a server's sockets without finishing a request, from loopback addresses
/// other than 127.0.0.1 (standing in for other hosts): the first `trickling` of them send a request head
/// one byte at a time (`sendNextByte()`), the others nothing. Closed when dropped.
final class SlowClients {
    private let sockets: [Int32]
    private let trickling: Int
    private var sent = 0
    private static let head = Array("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow\r\n\r\n".utf8)

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Opens `count` connections to 127.0.0.1:`port`, the i-th from `sources[i % sources.count]`, without
    /// waiting for the server to accept them.
    init(port: Int, count: Int, sources: [String], trickling: Int) throws {
        var sockets: [Int32] = []
        for index in 0..<count {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else {
                sockets.forEach { close($0) }
                throw Failure(description: "socket() failed (errno \(errno)) after \(index) connections")
            }
            sockets.append(fd)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            var source = Self.address(sources[index % sources.count], port: 0)
            var target = Self.address("127.0.0.1", port: port)
            let bound = withUnsafePointer(to: &source) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                sockets.forEach { close($0) }
                throw Failure(description: "bind to \(sources[index % sources.count]) failed (errno \(errno))")
            }
            let connected = withUnsafePointer(to: &target) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 || errno == EINPROGRESS else {
                sockets.forEach { close($0) }
                throw Failure(description: "connect failed (errno \(errno))")
            }
        }
        self.sockets = sockets
        self.trickling = min(trickling, count)
    }

    deinit { sockets.forEach { close($0) } }

    /// Sends the next byte of the request head on each trickling connection (never the last one, so no
    /// head is ever complete); errors (the server closed it) are ignored.
    func sendNextByte() {
        guard sent < Self.head.count - 1 else { return }
        var byte = Self.head[sent]
        for fd in sockets.prefix(trickling) { _ = send(fd, &byte, 1, Int32(MSG_NOSIGNAL)) }
        sent += 1
    }

    /// How many of the connections the server has closed (end of file or reset), without blocking.
    func closedByServer() -> Int {
        var closed = 0
        var byte: UInt8 = 0
        for fd in sockets {
            let count = recv(fd, &byte, 1, Int32(MSG_DONTWAIT) | Int32(MSG_PEEK))
            if count == 0 || (count < 0 && errno == ECONNRESET) { closed += 1 }
        }
        return closed
    }

    private static func address(_ host: String, port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr(host)
        return address
    }
}
