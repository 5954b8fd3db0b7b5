/// The protocols a resource read on behalf of an input may use: the one rule for FFmpeg's own reads
/// (passed as `protocol_whitelist`) and bufprobe's (playlists read by `ResourceReader`).
///
/// A remote input (`http`, `https`, `tls`, `tcp`) may only lead to `http, https, tls, tcp, crypto, data`,
/// as FFmpeg's HTTP protocol restricts what it opens by default: a remote playlist must never make the
/// reader open a local file, a device or a FIFO. A local input follows FFmpeg's defaults (no whitelist).
public struct ProtocolWhitelist: Sendable, Hashable, CustomStringConvertible {
    /// The protocols allowed, in FFmpeg's names.
    public let protocols: [String]

    /// What a remote input may lead to.
    public static let remote = ProtocolWhitelist(protocols: ["http", "https", "tls", "tcp", "crypto", "data"])

    /// The whitelist for resources read on behalf of `input`, or `nil` when none applies (a local input).
    public static func forInput(_ input: String) -> ProtocolWhitelist? {
        let chain = protocolChain(of: input)
        return chain.contains(where: { remote.protocols.contains($0) && $0 != "data" && $0 != "crypto" }) ? remote : nil
    }

    /// Whether `url` uses only allowed protocols (every layer of `crypto+http://`, `crypto:https://`).
    public func allows(_ url: String) -> Bool {
        protocolChain(of: url).allSatisfy { protocols.contains($0) }
    }

    /// Why `url` may not be read, completing a sentence that begins with it, or `nil` when every layer of
    /// it is allowed: the one wording of this refusal in warnings and metrics' logs.
    public func refusal(for url: String) -> String? {
        allows(url) ? nil : "uses a protocol a remote input may not use (only \(self))"
    }

    /// The value of FFmpeg's `protocol_whitelist` option.
    public var ffmpegValue: String { protocols.joined(separator: ",") }

    /// `http, https, tls, tcp, crypto, data`.
    public var description: String { protocols.joined(separator: ", ") }

    private func protocolChain(of url: String) -> [String] { Self.protocolChain(of: url) }

    /// The protocols FFmpeg would use for `url`, outermost first: a path without a scheme is `file`,
    /// `crypto+http://` and `crypto:http://` are `crypto` over `http`.
    static func protocolChain(of url: String) -> [String] {
        var rest = Substring(url)
        var chain: [String] = []
        while true {
            guard let end = rest.firstIndex(where: { !($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }),
                end > rest.startIndex, rest[end] == ":" || rest[end] == "+" || rest[end] == ","
            else { break }
            let name = rest[..<end].lowercased()
            // A Windows drive letter or a bare "c:" path is not a scheme FFmpeg would honour either.
            chain.append(name)
            rest = rest[rest.index(after: end)...]
            if rest.hasPrefix("//") || name == "data" || name == "file" { break }
        }
        return chain.isEmpty ? ["file"] : chain
    }
}
