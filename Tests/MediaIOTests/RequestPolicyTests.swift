import MediaIO
import Testing

/// `--deny-private`'s address rule and `RequestPolicy`'s reading of the URL it checks.
@Suite("request policy: private addresses and what is requested")
struct RequestPolicyTests {
    @Test(
        "IPv4 addresses that reach the machine or a private network are private; public ones are not",
        arguments: [
            ([127, 0, 0, 1], true), ([127, 0, 0, 2], true), ([10, 1, 2, 3], true), ([172, 16, 0, 1], true),
            ([172, 31, 255, 255], true), ([192, 168, 1, 1], true), ([169, 254, 169, 254], true), ([0, 0, 0, 0], true),
            ([100, 64, 0, 1], true), ([224, 0, 0, 1], true), ([255, 255, 255, 255], true),
            ([172, 32, 0, 1], false), ([8, 8, 8, 8], false), ([100, 128, 0, 1], false), ([192, 169, 0, 1], false),
            ([151, 101, 1, 1], false),
        ] as [([UInt8], Bool)])
    func ipv4(bytes: [UInt8], isPrivate: Bool) {
        #expect(PrivateAddress.isPrivate(ipv4: bytes) == isPrivate, "\(bytes)")
    }

    @Test("IPv6: loopback, unspecified, link-local, unique local, multicast, and private IPv4 inside mapped or NAT64 forms")
    func ipv6() {
        func address(_ head: [UInt8], _ tail: [UInt8] = []) -> [UInt8] { head + Array(repeating: 0, count: 16 - head.count - tail.count) + tail }
        #expect(PrivateAddress.isPrivate(ipv6: address([], [1])))  // ::1
        #expect(PrivateAddress.isPrivate(ipv6: address([])))  // ::
        #expect(PrivateAddress.isPrivate(ipv6: address([0xfe, 0x80], [1])))
        #expect(PrivateAddress.isPrivate(ipv6: address([0xfd, 0x00, 0x0e, 0xc2], [0x02, 0x54])))  // AWS metadata
        #expect(PrivateAddress.isPrivate(ipv6: address([0xff, 0x02], [1])))
        #expect(PrivateAddress.isPrivate(ipv6: address([], [0xff, 0xff, 169, 254, 169, 254])))  // ::ffff:169.254.169.254
        #expect(PrivateAddress.isPrivate(ipv6: address([0, 0x64, 0xff, 0x9b], [10, 0, 0, 1])))  // 64:ff9b::10.0.0.1
        #expect(!PrivateAddress.isPrivate(ipv6: address([0x20, 0x01, 0x0d, 0xb8], [1])))
        #expect(!PrivateAddress.isPrivate(ipv6: address([], [0xff, 0xff, 8, 8, 8, 8])))
    }

    @Test("names and literals are resolved before they are judged")
    func resolution() {
        #expect(PrivateAddress.firstPrivate(resolving: "localhost") != nil)
        #expect(PrivateAddress.firstPrivate(resolving: "127.0.0.2") == "127.0.0.2")
        #expect(PrivateAddress.firstPrivate(resolving: "::1") != nil)
        #expect(PrivateAddress.firstPrivate(resolving: "8.8.8.8") == nil)
    }

    @Test("the allow-list sees the URL as requested (without crypto+ or hls+), data: is never a request, and a private host is refused with its address")
    func refusals() {
        let policy = RequestPolicy(admits: { $0.hasPrefix("http://cdn.example/") }, denyPrivate: true)
        #expect(policy.refusal(for: "crypto+http://cdn.example/seg.ts")?.reason == nil)
        #expect(policy.refusal(for: "http://cdn.example:8080/seg.ts")?.reason == .notAllowed)
        #expect(policy.refusal(for: "data:text/plain,abc")?.reason == nil)
        let privateHost = RequestPolicy(denyPrivate: true)
        #expect(privateHost.refusal(for: "http://127.0.0.2:8080/a.m3u8")?.reason == .privateAddress)
        #expect(privateHost.refusal(for: "http://user@[::1]:8080/a.m3u8")?.reason == .privateAddress)
        #expect(privateHost.refusal(for: "http://localhost/a.m3u8")?.why.contains("localhost, which resolves to") == true)
        #expect(privateHost.refusal(for: "http://8.8.8.8/a.m3u8") == nil)
        #expect(!RequestPolicy().isActive)
    }
}
