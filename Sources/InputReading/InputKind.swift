import Foundation

/// What a command-line input names, by the protocol FFmpeg would open it with: the one rule for which
/// protocols a top-level input may use (probe, check and simulate alike).
///
/// Local inputs: a path, `-` or `pipe:` (standard input), `file:`, `pipe:N`, `concat:`, `concatf:`,
/// `subfile:` and `data:`. Network inputs: the schemes `URLCheck` knows (`http`, `https`, `rtmp`, `srt`,
/// `udp`...), also under FFmpeg's wrappers (`hls+http://`, `crypto+https://`, `async:http://`). The rest
/// of FFmpeg's protocols (output-only ones like `tee` and `md5`, `unix`, `zmq`, `bluray`...) are refused
/// with a sentence naming the protocol. What a *remote* input may lead to is MediaIO's
/// `ProtocolWhitelist`; it treats `-`, `pipe:` and the local protocols here as local inputs too.
package enum InputKind: Equatable, Sendable {
    /// `-`, `pipe:` or `pipe:0`: the media arrives on standard input.
    case standardInput
    /// A local file: `path` as given, or after `file:`.
    case file(path: String)
    /// Another local protocol (`concat`, `concatf`, `subfile`, `data`, `pipe` with another descriptor).
    case local(protocol: String)
    /// A network URL; `scheme` is the transport (`http` for `hls+http://`).
    case network(scheme: String)
    /// A protocol bufprobe does not read as an input; `known` when FFmpeg has it at all.
    case refused(protocol: String, known: Bool)

    /// Local protocols besides `file` and `pipe`.
    static let localProtocols: Set<String> = ["concat", "concatf", "subfile", "data"]
    /// Protocols that wrap another one, named after them (`crypto:URL`, `hls+http://`).
    static let wrappers: Set<String> = ["hls", "crypto", "async", "cache"]
    /// Network protocols FFmpeg reads that `URLCheck` does not parse for a host and port.
    static let otherNetworkProtocols: Set<String> = ["udplite", "srtp", "rist", "sctp"]
    /// FFmpeg's other protocols: not media inputs for bufprobe.
    static let otherProtocols: Set<String> = [
        "bluray", "ffrtmphttp", "httpproxy", "unix", "amqp", "zmq", "ipfs", "ipns", "md5", "tee", "prompeg",
        "fd", "android_content", "librtmp", "libsmbclient", "smb", "libssh",
    ]

    /// The protocols an input may name, for the sentence that refuses the others.
    static let accepted =
        "a path, - (standard input), file:, pipe:, concat:, concatf:, subfile:, data:, or a network URL (http, https, hls+http, rtmp, rtsp, srt, udp...)"

    /// Classifies `input` as FFmpeg's `url_find_protocol` would.
    package init(_ input: String) {
        if input == "-" {
            self = .standardInput
            return
        }
        guard let (scheme, rest) = Self.scheme(of: input) else {
            self = .file(path: input)
            return
        }
        let layers = scheme.split(separator: "+").map(String.init)
        let outer = layers.first ?? scheme
        let transport = layers.last ?? scheme
        switch outer {
        case "file" where layers.count == 1:
            self = .file(path: String(rest))
        case "pipe" where layers.count == 1:
            self = rest.isEmpty || rest == "0" ? .standardInput : .local(protocol: "pipe")
        case _ where layers.count == 1 && Self.localProtocols.contains(outer):
            self = .local(protocol: outer)
        case _ where layers.count == 1 && Self.wrappers.contains(outer) && !rest.hasPrefix("//"):
            // `crypto:URL`, `async:URL`, `cache:URL`: what is wrapped decides.
            switch InputKind(String(rest)) {
            case .file, .standardInput, .local: self = .local(protocol: outer)
            case let other: self = other
            }
        default:
            let wrapped = layers.dropLast().allSatisfy { Self.wrappers.contains($0) }
            if wrapped, URLCheck.networkSchemes.contains(transport) || Self.otherNetworkProtocols.contains(transport) {
                self = .network(scheme: transport)
            } else if let refused = layers.first(where: {
                !Self.wrappers.contains($0) && !URLCheck.networkSchemes.contains($0)
                    && !Self.otherNetworkProtocols.contains($0)
            }) ?? layers.last {
                let known = Self.otherProtocols.contains(refused) || Self.localProtocols.contains(refused)
                    || refused == "file" || refused == "pipe"
                if !known, !rest.hasPrefix("//") {
                    // `notes:take1.ts` is a file name with a colon, not a protocol FFmpeg knows.
                    self = .file(path: input)
                } else {
                    self = .refused(protocol: refused, known: known)
                }
            } else {
                self = .refused(protocol: scheme, known: false)
            }
        }
    }

    /// The URL to hand libavformat for `input`: standard input as `pipe:0`, and a path whose first
    /// component looks like a protocol (`notes:take1.ts`) behind `file:` so FFmpeg does not take it for one.
    package static func ffmpegURL(for input: String) -> String {
        switch InputKind(input) {
        case .standardInput: return input == "-" ? "pipe:0" : input
        case .file where Self.scheme(of: input) != nil && !input.lowercased().hasPrefix("file:"): return "file:" + input
        default: return input
        }
    }

    /// The short name the live line and a plot title give `input`: a URL as given, a path's file name,
    /// `stdin`, and for `concat:a|b` every part's file name (`concat:a.ts|b.ts`), not only the last one's.
    package static func title(of input: String) -> String {
        switch InputKind(input) {
        case .standardInput: return "stdin"
        case .file(let path): return (path as NSString).lastPathComponent
        case .local(let name) where name == "concat":
            guard let (_, rest) = scheme(of: input) else { return input }
            let parts = rest.split(separator: "|", omittingEmptySubsequences: false)
            return "concat:" + parts.map { (String($0) as NSString).lastPathComponent }.joined(separator: "|")
        case .local, .network, .refused: return input
        }
    }

    /// Whether the input is read from the network.
    package var isNetwork: Bool {
        if case .network = self { return true }
        return false
    }

    /// The local file's path, for inputs that are one.
    package var localPath: String? {
        if case .file(let path) = self { return path }
        return nil
    }

    /// The leading protocol name of `input` (lowercased; `hls+http` for `hls+http://`) and what follows
    /// its colon, or `nil` for a plain path. Like FFmpeg, `subfile,,start,0,,:x.ts` names `subfile`.
    static func scheme(of input: String) -> (String, Substring)? {
        if input.hasPrefix("subfile,"), let colon = input.firstIndex(of: ":") {
            return ("subfile", input[input.index(after: colon)...])
        }
        guard let colon = input.firstIndex(of: ":"), colon > input.startIndex else { return nil }
        let name = input[..<colon]
        guard name.allSatisfy({ ($0.isASCII && ($0.isLetter || $0.isNumber)) || "+-.".contains($0) }),
            name.first?.isLetter == true
        else { return nil }
        return (name.lowercased(), input[input.index(after: colon)...])
    }
}
