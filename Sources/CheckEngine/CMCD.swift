import Foundation
import MediaIO

/// Common Media Client Data (CTA-5004) that a check sends, opt-in, so that a CDN's logs can tell a
/// synthetic viewer from a real one: the session keys (`sid`, `cid`) on every request, and per-request keys
/// (`su`, `ot`, `br`, `bl`) where bufprobe knows them. Formatting only, no I/O: keys sorted alphabetically,
/// strings quoted, `true` booleans as the bare key, headers grouped as the specification shards them
/// (`CMCD-Object`: `br`, `ot`; `CMCD-Request`: `bl`, `su`; `CMCD-Session`: `cid`, `sid`), or all in one
/// `CMCD` query argument.
package struct CMCD: Sendable, Hashable {
    /// How the data travels.
    package enum Mode: String, Sendable, Hashable, CaseIterable {
        /// One `CMCD=` query argument on the URL.
        case query
        /// `CMCD-Object`, `CMCD-Request` and `CMCD-Session` request headers.
        case headers
    }

    /// The object type (`ot`) of a request.
    package enum ObjectType: String, Sendable, Hashable {
        /// A playlist or manifest.
        case manifest = "m"
        /// Audio only.
        case audio = "a"
        /// Video only.
        case video = "v"
        /// Muxed audio and video.
        case muxed = "av"
        /// An initialisation segment.
        case initSegment = "i"
        /// A key or licence.
        case key = "k"
        /// Anything else.
        case other = "o"

        /// `manifest` for a URL whose path ends in `.m3u8`, `.m3u` or `.mpd`, `muxed` otherwise (the object
        /// a player opens first is either a playlist or a progressive file).
        package init(guessingFrom url: String) {
            self = ContainerFormat(namedBy: url) == nil ? .muxed : .manifest
        }
    }

    /// What is known about one request.
    package struct Request: Sendable, Hashable {
        /// `ot`.
        package var objectType: ObjectType?
        /// `br`: the encoded bit rate of the object, kbit/s.
        package var bitRateKbps: Int?
        /// `bl`: the buffer ahead when the request is made, milliseconds (sent rounded to 100 ms).
        package var bufferMilliseconds: Int?
        /// `su`: the request is made while starting up (or rebuffering).
        package var startup = false

        /// A request's keys.
        package init(objectType: ObjectType? = nil, bitRateKbps: Int? = nil, bufferMilliseconds: Int? = nil, startup: Bool = false) {
            self.objectType = objectType
            self.bitRateKbps = bitRateKbps
            self.bufferMilliseconds = bufferMilliseconds
            self.startup = startup
        }
    }

    /// How the data is sent.
    package var mode: Mode
    /// `sid`: one id per check (a UUID unless given).
    package var sessionID: String
    /// `cid`: the content id, when given.
    package var contentID: String?

    /// The longest `sid` or `cid` CTA-5004 allows, characters.
    package static let longestString = 64

    /// CMCD in `mode` for a session `sessionID` (a new UUID by default) of content `contentID`.
    package init(mode: Mode, sessionID: String = UUID().uuidString.lowercased(), contentID: String? = nil) {
        self.mode = mode
        self.sessionID = sessionID
        self.contentID = contentID
    }

    /// The request's keys, sorted by key as the specification asks: `key=value`, or the bare key for
    /// `true`. Strings longer than `longestString` are cut there; quotes and backslashes escaped.
    package func pairs(for request: Request) -> [String] {
        var pairs: [(String, String?)] = [("sid", Self.quoted(sessionID))]
        if let contentID { pairs.append(("cid", Self.quoted(contentID))) }
        if let type = request.objectType { pairs.append(("ot", type.rawValue)) }
        if let rate = request.bitRateKbps, rate > 0 { pairs.append(("br", String(rate))) }
        if let buffer = request.bufferMilliseconds, buffer >= 0 { pairs.append(("bl", String((buffer + 50) / 100 * 100))) }
        if request.startup { pairs.append(("su", nil)) }
        return pairs.sorted { $0.0 < $1.0 }.map { key, value in value.map { "\(key)=\($0)" } ?? key }
    }

    /// The headers for `request`, `Name: keys` each, in the order Object, Request, Session; a header
    /// without keys is left out.
    package func headers(for request: Request) -> [String] {
        let shards: [(String, Set<String>)] = [
            ("CMCD-Object", ["br", "ot"]), ("CMCD-Request", ["bl", "su"]), ("CMCD-Session", ["cid", "sid"]),
        ]
        let pairs = pairs(for: request)
        return shards.compactMap { name, keys in
            let mine = pairs.filter { keys.contains(String($0.prefix { $0 != "=" })) }
            return mine.isEmpty ? nil : "\(name): " + mine.joined(separator: ",")
        }
    }

    /// The headers that hold for every request of the check (FFmpeg sends the same headers with each
    /// playlist and segment it opens): `CMCD-Session` in header mode, nothing in query mode.
    package var sessionHeaders: [String] { mode == .headers ? headers(for: Request()) : [] }

    /// `url` with the `CMCD` query argument for `request` appended (percent-encoded).
    package func decorated(_ url: String, request: Request) -> String {
        let (base, fragment) = url.firstIndex(of: "#").map { (String(url[..<$0]), String(url[$0...])) } ?? (url, "")
        return base + (base.contains("?") ? "&" : "?") + queryArgument(for: request) + fragment
    }

    /// `CMCD=` and the request's keys, percent-encoded, as a query argument.
    package func queryArgument(for request: Request) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return "CMCD=" + (pairs(for: request).joined(separator: ",").addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
    }

    private static func quoted(_ text: String) -> String {
        let cut = String(text.prefix(longestString))
        return "\"" + cut.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
