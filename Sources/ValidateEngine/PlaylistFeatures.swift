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

    /// Nothing used.
    public init() {}

    /// The features of playlist text `text`.
    public init(text: String) {
        references = HLSPlaylist.references(in: text)
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
                if HLSPlaylist.attributes(of: line)["INSTREAM-ID"]?.hasPrefix("SERVICE") == true { instreamService = true }
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
