extension HLSPlaylist {
    /// A media playlist a multivariant playlist names besides its variants: an `#EXT-X-MEDIA` rendition with a
    /// URI, or an `#EXT-X-I-FRAME-STREAM-INF` I-frame playlist.
    public struct Reference: Sendable, Hashable, Codable {
        /// `#EXT-X-MEDIA`'s `TYPE` (`AUDIO`, `VIDEO`, `SUBTITLES`), or `I-FRAME` for an I-frame playlist.
        public var type: String
        /// The URI, as written.
        public var uri: String
        /// `GROUP-ID` of a rendition.
        public var groupID: String?
        /// `BANDWIDTH` of an I-frame playlist.
        public var bandwidth: Int?
    }

    /// Every rendition with a URI and every I-frame playlist the multivariant playlist text `text` names, in
    /// playlist order (at most `maxReferences`: a hostile playlist's thousands are not all read).
    public static func references(in text: String) -> [Reference] {
        var found: [Reference] = []
        for raw in text.split(whereSeparator: \.isNewline) where found.count < maxReferences {
            let line = raw.drop { $0 == " " || $0 == "\t" || $0 == "\u{FEFF}" }
            if line.hasPrefix("#EXT-X-MEDIA:") {
                let attributes = parseAttributes(line.dropFirst("#EXT-X-MEDIA:".count))
                if let uri = attributes["URI"], let type = attributes["TYPE"], type != "CLOSED-CAPTIONS" {
                    found.append(Reference(type: type, uri: uri, groupID: attributes["GROUP-ID"]))
                }
            } else if line.hasPrefix("#EXT-X-I-FRAME-STREAM-INF:") {
                let attributes = parseAttributes(line.dropFirst("#EXT-X-I-FRAME-STREAM-INF:".count))
                if let uri = attributes["URI"] {
                    found.append(Reference(type: "I-FRAME", uri: uri, bandwidth: attributes["BANDWIDTH"].flatMap { Int($0) }))
                }
            }
        }
        return found
    }

    /// The most renditions and I-frame playlists `references(in:)` returns.
    public static let maxReferences = 256

    /// The attribute list of an `#EXT-...:` line (`KEY=value,KEY="quoted"`), quotes removed: what a caller
    /// that scans a playlist's lines for a tag the model does not keep reads its attributes with.
    public static func attributes(of line: Substring) -> [String: String] {
        let (_, value) = splitTag(line)
        return parseAttributes(value)
    }
}
