import Foundation

/// Catches malformed URLs before FFmpeg sees them: FFmpeg takes `http://` or `http://host:99999/` and
/// fails later with a vague error, or quietly uses a default port. `InputCheck` sends network inputs here.
package enum URLCheck {
    /// Schemes whose URLs must name a host (`udp://@:1234`, `srt://:9000?mode=listener` and the like
    /// may leave it out to listen).
    static let hostSchemes: Set<String> = [
        "http", "https", "rtmp", "rtmps", "rtmpt", "rtmpe", "rtmpte", "rtmpts", "rtsp", "rtsps", "ftp", "sftp",
        "mmsh", "mmst", "gopher", "gophers", "icecast",
    ]
    /// Network schemes whose URLs are parsed for a valid port.
    static let networkSchemes: Set<String> = hostSchemes.union(["srt", "udp", "tcp", "tls", "rtp"])

    /// One sentence naming the network URL `input` and what is wrong with it, or `nil` when FFmpeg should
    /// try it (also for inputs that are not `scheme://` URLs: `InputCheck` checks those).
    package static func problem(with input: String) -> String? {
        guard InputCheck.isURL(input), let separator = input.range(of: "://") else { return nil }
        let scheme = String(input[..<separator.lowerBound]).lowercased()
        // FFmpeg's nested protocols (`hls+http://`, `crypto+https://`) name the transport last.
        let transport = scheme.split(separator: "+").last.map(String.init) ?? scheme
        guard networkSchemes.contains(transport) else { return nil }
        guard input.allSatisfy({ !$0.isWhitespace && !$0.isNewline }) else {
            return "\(input) is not a valid URL: it contains spaces (write them as %20)."
        }
        let plain = input.replacingOccurrences(of: scheme + "://", with: transport + "://", options: [.anchored, .caseInsensitive])
        guard let components = URLComponents(string: plain) else {
            return "\(input) is not a valid URL: check the host, the port and the brackets around an IPv6 address."
        }
        guard !hostSchemes.contains(transport) || !(components.host ?? "").isEmpty else {
            return "\(input) is not a valid URL: it names no host."
        }
        if let port = components.port, !(1...65535).contains(port) {
            return "\(input) is not a valid URL: port \(port) is outside 1-65535."
        }
        return nil
    }
}
