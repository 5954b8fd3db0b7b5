/// The rules on a playlist's text and structure that the media confirms or not: the encoding (RFC 8216
/// §4.1), rendition group references (§4.3.4.2), fMP4 segments' initialization section (§3.3) and
/// `EXT-X-INDEPENDENT-SEGMENTS` held against the segments' first frames (§4.3.5.1).
extension HLSRules {
    /// rfc8216:4.1: a playlist's bytes are UTF-8, without a byte order mark or a control character but CR
    /// and LF.
    public static func encoding(_ read: PlaylistRead) -> [Finding] {
        guard let problem = read.features.encodingProblem else { return [] }
        return [Finding(rule: "rfc8216:4.1", message: "the playlist \(problem)", where: [read.uri])]
    }

    /// rfc8216:4.3.4.2: every `AUDIO`, `VIDEO`, `SUBTITLES` and `CLOSED-CAPTIONS` group a variant names is the
    /// `GROUP-ID` of an `#EXT-X-MEDIA` of that `TYPE` in the multivariant playlist. One finding per group.
    public static func groupReferences(_ multivariant: PlaylistRead) -> [Finding] {
        let declared = Set(multivariant.features.groupsDeclared.map { "\($0.type)\u{0}\($0.groupID)" })
        var missing: [String: (type: String, group: String, variants: [Int])] = [:]
        var order: [String] = []
        for named in multivariant.features.groupsNamed where !declared.contains("\(named.type)\u{0}\(named.groupID)") {
            let key = "\(named.type)\u{0}\(named.groupID)"
            if missing[key] == nil {
                missing[key] = (named.type, named.groupID, [])
                order.append(key)
            }
            missing[key]?.variants.append(named.variant ?? 0)
        }
        let variants = Set(multivariant.features.groupsNamed.compactMap(\.variant)).count
        return order.compactMap { missing[$0] }.map { entry in
            let list = entry.variants.map(String.init).joined(separator: ", ")
            return Finding(
                rule: "rfc8216:4.3.4.2",
                message: "\(entry.type)=\"\(entry.group)\" (variant\(entry.variants.count == 1 ? "" : "s") \(list)) names no EXT-X-MEDIA with TYPE=\(entry.type) and that GROUP-ID",
                where: [multivariant.uri], count: entry.variants.count, total: variants)
        }
    }

    /// rfc8216:3.3: a media playlist whose segments are fragmented MP4 (their bytes start with a `styp`,
    /// `moof`, `sidx`, `prft` or `emsg` box) gives them their initialization section with `#EXT-X-MAP`.
    public static func initializationSection(_ read: PlaylistRead) -> [Finding] {
        guard let playlist = read.playlist else { return [] }
        let fragmentBoxes: Set<String> = ["styp", "moof", "sidx", "prft", "emsg"]
        let unmapped = read.segments.filter { segment in
            guard let box = segment.firstBox, fragmentBoxes.contains(box) else { return false }
            return playlist.segments.indices.contains(segment.index) && playlist.segments[segment.index].map == nil
        }
        guard !unmapped.isEmpty else { return [] }
        let segmentsRead = read.segments.filter { $0.bytes != nil }.count
        return [Finding(
            rule: "rfc8216:3.3",
            message: "a fragmented MP4 segment has no EXT-X-MAP naming its initialization section \(often(unmapped.count, of: segmentsRead))",
            where: places(read, unmapped), count: unmapped.count, total: segmentsRead)]
    }

    /// rfc8216:4.3.5.1: where `#EXT-X-INDEPENDENT-SEGMENTS` is declared (in the multivariant playlist, for all
    /// of them, or in the media playlist), every video segment starts with a keyframe, so that it decodes
    /// without the segment before it.
    public static func independentSegments(_ read: StreamRead) -> [Finding] {
        let everywhere = read.multivariant?.features.independentSegments ?? false
        var found: [Finding] = []
        for playlist in read.playlists where playlist.playlist != nil && playlist.role != .iFrame {
            guard everywhere || playlist.features.independentSegments else { continue }
            let video = playlist.segments.filter { $0.startsWithKeyframe != nil }
            let dependent = video.filter { $0.startsWithKeyframe == false }
            guard !dependent.isEmpty else { continue }
            let declaredIn = everywhere && !playlist.features.independentSegments ? "the multivariant playlist" : "the playlist"
            found.append(Finding(
                rule: "rfc8216:4.3.5.1",
                message: "\(declaredIn) declares EXT-X-INDEPENDENT-SEGMENTS, but a video segment starts without a keyframe \(often(dependent.count, of: video.count, "video segment"))",
                where: places(playlist, dependent), count: dependent.count, total: video.count))
        }
        return found
    }
}
