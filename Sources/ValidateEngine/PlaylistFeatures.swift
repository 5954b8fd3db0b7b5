public import MediaIO

/// What a playlist's text uses that needs a protocol version (RFC 8216 §7), and the version it declares:
/// read once from the text where the playlist is read, so that the version rule needs no text.
public struct PlaylistFeatures: Sendable, Hashable, Codable {
    /// `#EXT-X-VERSION`'s value (the last one), `nil` without the tag.
    public var declaredVersion: Int?
    /// An `#EXTINF` duration written with a decimal point (version 3).
    public var floatingPointDurations = false
    /// `#EXT-X-BYTERANGE` (version 4).
    public var byteRanges = false
    /// `#EXT-X-I-FRAMES-ONLY` (version 4).
    public var iFramesOnly = false
    /// `#EXT-X-MAP` (version 6, or 5 in an I-frame playlist).
    public var map = false
    /// `#EXT-X-KEY` with an `IV` (version 2).
    public var keyIV = false
    /// `#EXT-X-KEY` with `KEYFORMAT` or `KEYFORMATVERSIONS` (version 5).
    public var keyFormat = false
    /// `#EXT-X-MEDIA` with `INSTREAM-ID="SERVICEn"` (version 7).
    public var instreamService = false
    /// The renditions and I-frame playlists a multivariant playlist names.
    public var references: [HLSPlaylist.Reference] = []
    /// `#EXT-X-INDEPENDENT-SEGMENTS`: every segment claims to decode without the ones before it.
    public var independentSegments = false
    /// The rendition groups `#EXT-X-MEDIA` tags declare (any `TYPE`, with or without a URI).
    public var groupsDeclared: [RenditionGroup] = []
    /// The rendition groups `#EXT-X-STREAM-INF` tags name (`AUDIO`, `VIDEO`, `SUBTITLES`, `CLOSED-CAPTIONS`
    /// but `NONE`), with the variant's position from 1.
    public var groupsNamed: [RenditionGroup] = []
    /// What makes the text break RFC 8216 §4.1 (not UTF-8, a byte order mark, a control character), as a
    /// clause; `nil` when nothing does.
    public var encodingProblem: String?

    /// A rendition group: its `TYPE` and `GROUP-ID`; `variant` is the naming variant's position from 1.
    public struct RenditionGroup: Sendable, Hashable, Codable {
        /// `AUDIO`, `VIDEO`, `SUBTITLES` or `CLOSED-CAPTIONS`.
        public var type: String
        /// The `GROUP-ID`.
        public var groupID: String
        /// The variant that names it (from 1), `nil` for a declaration.
        public var variant: Int?
    }

    /// Nothing used.
    public init() {}

    /// The features of a playlist's bytes: its text's (decoded as UTF-8, invalid bytes replaced), and
    /// whether the bytes keep RFC 8216 §4.1's encoding rules.
    public init(bytes: [UInt8]) {
        self.init(text: String(decoding: bytes, as: UTF8.self))
        encodingProblem = Self.encodingProblem(bytes)
    }

    /// RFC 8216 §4.1 on `bytes`: UTF-8, no byte order mark, no control character but CR and LF (U+0000 to
    /// U+001F, U+007F to U+009F); the first problem as a clause, `nil` when none.
    static func encodingProblem(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return "starts with a byte order mark" }
        guard let text = String(validating: bytes, as: UTF8.self) else { return "is not valid UTF-8" }
        var line = 1
        for scalar in text.unicodeScalars {
            if scalar == "\n" { line += 1 }
            let value = scalar.value
            if (value < 0x20 && scalar != "\n" && scalar != "\r") || (0x7F...0x9F).contains(value) {
                return "contains the control character U+\(String(format: "%04X", value)) (line \(line))"
            }
        }
        return nil
    }

    /// The features of playlist text `text`.
    public init(text: String) {
        references = HLSPlaylist.references(in: text)
        var variant = 0
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.drop { $0 == " " || $0 == "\t" || $0 == "\u{FEFF}" }
            guard line.hasPrefix("#EXT") else { continue }
            if line.hasPrefix("#EXTINF:") {
                let duration = line.dropFirst("#EXTINF:".count).prefix { $0 != "," }
                if duration.contains(".") { floatingPointDurations = true }
            } else if line.hasPrefix("#EXT-X-VERSION:") {
                declaredVersion = Int(line.dropFirst("#EXT-X-VERSION:".count).trimmingCharacters(in: " \t\r"))
            } else if line.hasPrefix("#EXT-X-BYTERANGE:") {
                byteRanges = true
            } else if line.hasPrefix("#EXT-X-I-FRAMES-ONLY") {
                iFramesOnly = true
            } else if line.hasPrefix("#EXT-X-MAP:") {
                map = true
            } else if line.hasPrefix("#EXT-X-KEY:") {
                let attributes = HLSPlaylist.attributes(of: line)
                if attributes["IV"] != nil { keyIV = true }
                if attributes["KEYFORMAT"] != nil || attributes["KEYFORMATVERSIONS"] != nil { keyFormat = true }
            } else if line.hasPrefix("#EXT-X-MEDIA:") {
                let attributes = HLSPlaylist.attributes(of: line)
                if attributes["INSTREAM-ID"]?.hasPrefix("SERVICE") == true { instreamService = true }
                if let type = attributes["TYPE"], let group = attributes["GROUP-ID"] {
                    groupsDeclared.append(RenditionGroup(type: type, groupID: group))
                }
            } else if line.hasPrefix("#EXT-X-STREAM-INF:") {
                variant += 1
                let attributes = HLSPlaylist.attributes(of: line)
                for type in ["AUDIO", "VIDEO", "SUBTITLES", "CLOSED-CAPTIONS"] {
                    guard let group = attributes[type], !(type == "CLOSED-CAPTIONS" && group == "NONE") else { continue }
                    groupsNamed.append(RenditionGroup(type: type, groupID: group, variant: variant))
                }
            } else if line.hasPrefix("#EXT-X-INDEPENDENT-SEGMENTS") {
                independentSegments = true
            }
        }
    }

    /// The lowest version the features need, and the feature that needs it (RFC 8216 §7); version 1 and
    /// no reason when nothing needs more.
    public var requiredVersion: (version: Int, reason: String?) {
        var needs: [(Int, String)] = []
        if keyIV { needs.append((2, "EXT-X-KEY with an IV")) }
        if floatingPointDurations { needs.append((3, "EXTINF durations with decimals")) }
        if byteRanges { needs.append((4, "EXT-X-BYTERANGE")) }
        if iFramesOnly { needs.append((4, "EXT-X-I-FRAMES-ONLY")) }
        if keyFormat { needs.append((5, "EXT-X-KEY with KEYFORMAT")) }
        if map { needs.append(iFramesOnly ? (5, "EXT-X-MAP in an I-frame playlist") : (6, "EXT-X-MAP")) }
        if instreamService { needs.append((7, "INSTREAM-ID=SERVICEn")) }
        guard let most = needs.max(by: { $0.0 < $1.0 }) else { return (1, nil) }
        return (most.0, most.1)
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> Substring {
        var text = self
        while let first = text.first, set.contains(first) { text.removeFirst() }
        while let last = text.last, set.contains(last) { text.removeLast() }
        return text
    }
}
