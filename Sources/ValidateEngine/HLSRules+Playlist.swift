import MediaIO

// The rules about a playlist's text alone: target duration, version, playlist type.
extension HLSRules {
    /// rfc8216:4.3.3.1: every `EXTINF`, rounded to the nearest integer, at most `EXT-X-TARGETDURATION`.
    public static func targetDuration(_ read: PlaylistRead) -> [Finding] {
        guard let playlist = read.playlist, playlist.kind == .media else { return [] }
        guard let target = playlist.targetDuration else {
            return [Finding(rule: "rfc8216:4.3.3.1", message: "the media playlist has no EXT-X-TARGETDURATION", where: [read.uri])]
        }
        let over = playlist.segments.enumerated().filter { $0.element.duration.rounded() > target }
        guard let longest = over.map(\.element.duration).max() else { return [] }
        let segments = over.prefix(Finding.listedPlaces).map { SegmentRead(index: $0.offset, uri: resolve($0.element.uri, read), declaredDuration: $0.element.duration) }
        return [Finding(
            rule: "rfc8216:4.3.3.1",
            message: "EXTINF up to \(seconds(longest)) rounds above EXT-X-TARGETDURATION \(Int(target)) \(often(over.count, of: playlist.segments.count))",
            where: places(read, segments), count: over.count, total: playlist.segments.count, measured: longest, declared: target)]
    }

    /// rfc8216:4.3.1.2: `EXT-X-VERSION` at least the version the playlist's features need.
    public static func version(_ read: PlaylistRead) -> [Finding] {
        guard read.playlist != nil else { return [] }
        let (needed, reason) = read.features.requiredVersion
        let declared = read.features.declaredVersion ?? 1
        guard let reason, declared < needed else { return [] }
        let written = read.features.declaredVersion.map { "EXT-X-VERSION is \($0)" } ?? "there is no EXT-X-VERSION (version 1)"
        return [Finding(
            rule: "rfc8216:4.3.1.2", message: "\(written) but \(reason) needs version \(needed)", where: [read.uri],
            measured: Double(needed), declared: Double(declared))]
    }

    /// apple:8.6: a VOD media playlist (with `EXT-X-ENDLIST`) carries `EXT-X-PLAYLIST-TYPE`.
    public static func playlistType(_ read: PlaylistRead) -> [Finding] {
        guard let playlist = read.playlist, playlist.kind == .media, playlist.hasEndList, playlist.playlistType == nil else { return [] }
        return [Finding(
            rule: "apple:8.6", message: "the media playlist ends (EXT-X-ENDLIST) but has no EXT-X-PLAYLIST-TYPE:VOD", where: [read.uri])]
    }

    /// apple:9.9: a multivariant playlist offers at least two bit rates.
    public static func bitRateLadder(_ read: StreamRead) -> [Finding] {
        guard let multivariant = read.multivariant, multivariant.playlist != nil else { return [] }
        let rates = Set(read.variants.map(\.declared.bandwidth))
        guard rates.count < 2 else { return [] }
        return [Finding(
            rule: "apple:9.9",
            message: "the multivariant playlist offers \(rates.count) bit rate\(rates.count == 1 ? "" : "s") (\(read.variants.count) variant\(read.variants.count == 1 ? "" : "s")), not several",
            where: [multivariant.uri], count: rates.count)]
    }

    /// A segment URI of `read`'s playlist, resolved against it.
    static func resolve(_ uri: String, _ read: PlaylistRead) -> String {
        URLReference.resolve(uri, against: read.uri)
    }
}
