public import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Local servers the tests start on 127.0.0.1 and stop when the test ends (nothing else is ever contacted):
/// free ports, temporary directories, the samples directory (check and serve tests alike).
public enum CheckServers {
    /// A port nothing listens on right now: bind port 0, read what the kernel chose, close.
    public static func freePort() throws -> Int {
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
    public static func accepts(port: Int) -> Bool {
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
    public static var samples: String { Samples.directory.path }

    /// A fresh temporary directory.
    public static func temporaryDirectory(_ prefix: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    public struct ServerError: Error, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }
}
