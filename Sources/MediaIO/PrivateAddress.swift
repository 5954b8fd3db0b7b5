#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The addresses `--deny-private` refuses: everything that reaches the machine itself or a network not
/// on the Internet.
///
/// IPv4: `0.0.0.0/8` (this host), `10.0.0.0/8`, `172.16.0.0/12`, `192.168.0.0/16` (RFC 1918),
/// `100.64.0.0/10` (shared, carrier NAT), `127.0.0.0/8` (loopback), `169.254.0.0/16` (link-local, where
/// cloud metadata answers: `169.254.169.254`), `192.0.0.0/24` (protocol assignments), `198.18.0.0/15`
/// (benchmarking), `224.0.0.0/3` (multicast, reserved, broadcast). IPv6: `::` and `::1`, `fe80::/10`
/// (link-local), `fc00::/7` (unique local, AWS's `fd00:ec2::254` metadata), `ff00::/8` (multicast), and
/// the IPv4 address inside `::ffff:0:0/96` (mapped), `64:ff9b::/96` (NAT64) and `::/96` (compatible)
/// judged as IPv4.
public enum PrivateAddress {
    /// The first address `host` (a name or a literal) resolves to that is private, as text; `nil` when none
    /// is, or the name does not resolve (FFmpeg then fails to connect on its own).
    public static func firstPrivate(resolving host: String) -> String? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return nil }
        defer { freeaddrinfo(list) }
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            if let address = current.pointee.ai_addr {
                switch Int32(address.pointee.sa_family) {
                case AF_INET:
                    let bytes = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                        withUnsafeBytes(of: pointer.pointee.sin_addr) { Array($0) }
                    }
                    if isPrivate(ipv4: bytes) { return bytes.map(String.init).joined(separator: ".") }
                case AF_INET6:
                    let bytes = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                        withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
                    }
                    if isPrivate(ipv6: bytes) { return text(ipv6: bytes) }
                default:
                    break
                }
            }
            entry = current.pointee.ai_next
        }
        return nil
    }

    /// Whether the four bytes of an IPv4 address (network order) are private.
    public static func isPrivate(ipv4 bytes: [UInt8]) -> Bool {
        guard bytes.count == 4 else { return true }
        let (a, b) = (bytes[0], bytes[1])
        switch a {
        case 0, 10, 127: return true
        case 100: return (64...127).contains(b)
        case 169: return b == 254
        case 172: return (16...31).contains(b)
        case 192: return b == 168 || (b == 0 && bytes[2] == 0)
        case 198: return b == 18 || b == 19
        case 224...: return true
        default: return false
        }
    }

    /// Whether the sixteen bytes of an IPv6 address (network order) are private.
    public static func isPrivate(ipv6 bytes: [UInt8]) -> Bool {
        guard bytes.count == 16 else { return true }
        let head = bytes[0..<12]
        // ::ffff:a.b.c.d (mapped), 64:ff9b::a.b.c.d (NAT64), ::a.b.c.d (compatible; :: and ::1 included).
        if head.elementsEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff])
            || head.elementsEqual([0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])
            || head.allSatisfy({ $0 == 0 })
        {
            return isPrivate(ipv4: Array(bytes[12..<16]))
        }
        if bytes[0] == 0xfe, bytes[1] & 0xc0 == 0x80 { return true }
        if bytes[0] & 0xfe == 0xfc { return true }
        return bytes[0] == 0xff
    }

    private static func text(ipv6 bytes: [UInt8]) -> String {
        stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            .joined(separator: ":")
    }
}
