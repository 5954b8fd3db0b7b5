import Foundation

extension HLSPlaylist {
    /// One `#EXT-X-MEDIA:TYPE=AUDIO` rendition of a master playlist.
    public struct AudioRendition: Sendable, Hashable {
        /// `GROUP-ID`: the variants whose `AUDIO` names it play one of the group's renditions.
        public var groupID: String
        /// `NAME`.
        public var name: String
        /// `URI` of its media playlist, as written; `nil` when the audio is in the variants' own segments.
        public var uri: String?
        /// `DEFAULT=YES`.
        public var isDefault: Bool
        /// `AUTOSELECT=YES`.
        public var autoselect: Bool
    }

    /// The `#EXT-X-MEDIA:TYPE=AUDIO` renditions of the master playlist text `text`, in playlist order.
    public static func audioRenditions(in text: String) -> [AudioRendition] {
        var renditions: [AudioRendition] = []
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.drop { $0 == " " || $0 == "\t" || $0 == "\u{FEFF}" }
            guard line.hasPrefix("#EXT-X-MEDIA:") else { continue }
            let attributes = parseAttributes(line.dropFirst("#EXT-X-MEDIA:".count))
            guard attributes["TYPE"] == "AUDIO", let group = attributes["GROUP-ID"] else { continue }
            renditions.append(
                AudioRendition(
                    groupID: group, name: attributes["NAME"] ?? "", uri: attributes["URI"],
                    isDefault: attributes["DEFAULT"] == "YES", autoselect: attributes["AUTOSELECT"] == "YES"))
        }
        return renditions
    }

    /// The rendition of `group` a player picks by itself: the `DEFAULT=YES` one, else the first
    /// `AUTOSELECT=YES`, else the first listed (hls.js and Shaka alike when no language is asked for).
    public static func defaultAudioRendition(of group: String, in renditions: [AudioRendition]) -> AudioRendition? {
        let members = renditions.filter { $0.groupID == group }
        return members.first(where: \.isDefault) ?? members.first(where: \.autoselect) ?? members.first
    }

    /// The audio renditions of the local master playlist at `path` (read as `load(path:)` reads it, at most
    /// `ResourceLimits.playlistBytes`); none when it cannot be read.
    public static func audioRenditions(path: String) -> [AudioRendition] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: Int(ResourceLimits.playlistBytes)) else { return [] }
        return audioRenditions(in: String(decoding: data, as: UTF8.self))
    }
}
