/// Where `serve` listens (`--listen`): a host or IP address and a port, `127.0.0.1:9788` or `[::1]:9788`.
/// Port 0 takes a free port, which the startup log line names.
package struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    /// The host name or address, without brackets.
    package var host: String
    /// 0 to 65535.
    package var port: Int

    /// The default: loopback only, port 9788.
    package static let `default` = ListenAddress(host: "127.0.0.1", port: 9788)

    /// An address.
    package init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT` or `[IPV6]:PORT`.
    package init?(parsing text: String) {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        var host = Substring(text[..<colon])
        let portText = text[text.index(after: colon)...]
        if host.hasPrefix("[") {
            guard host.hasSuffix("]") else { return nil }
            host = host.dropFirst().dropLast()
        } else if host.contains(":") {
            return nil
        }
        guard !host.isEmpty, host.allSatisfy({ $0.isASCII && !$0.isWhitespace }),
            portText.allSatisfy(\.isASCII), let port = Int(portText), (0...65535).contains(port)
        else { return nil }
        self.init(host: String(host), port: port)
    }

    /// The sentence for a `--listen` value that is not an address: what is accepted.
    package static func refusal(of text: String) -> String {
        "'\(text)' is not HOST:PORT (127.0.0.1:9788, 0.0.0.0:9788, [::1]:9788), with a port from 0 to 65535."
    }

    /// `127.0.0.1:9788`, `[::1]:9788`.
    package var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
