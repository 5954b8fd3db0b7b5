// The rules about a media playlist's segments as their packets show them.
extension HLSRules {
    /// apple:7.4: every video segment starts with a keyframe.
    public static func keyframeStart(_ read: PlaylistRead) -> [Finding] {
        let video = read.segments.filter { $0.startsWithKeyframe != nil }
        let without = video.filter { $0.startsWithKeyframe == false }
        guard !without.isEmpty else { return [] }
        return [Finding(
            rule: "apple:7.4", message: "a video segment starts without a keyframe \(often(without.count, of: video.count, "video segment"))",
            where: places(read, without), count: without.count, total: video.count)]
    }

    /// apple:7.7: no segment's media longer than `EXT-X-TARGETDURATION` + 0.5 s.
    public static func segmentDuration(_ read: PlaylistRead) -> [Finding] {
        guard let target = read.playlist?.targetDuration else { return [] }
        let timed = read.segments.filter { $0.mediaDuration != nil }
        let over = timed.filter { ($0.mediaDuration ?? 0) > target + 0.5 }
        guard let longest = over.compactMap(\.mediaDuration).max() else { return [] }
        return [Finding(
            rule: "apple:7.7",
            message: "media lasts up to \(seconds(longest)), more than EXT-X-TARGETDURATION \(Int(target)) + 0.5 s, \(often(over.count, of: timed.count))",
            where: places(read, over), count: over.count, total: timed.count, measured: rounded(longest), declared: target)]
    }

    /// apple:8.1: the `EXTINF` durations add up to the media's real duration within one frame. Judged only
    /// on a playlist whose every segment was read.
    public static func durationSum(_ read: PlaylistRead) -> [Finding] {
        guard read.isComplete, !read.segments.isEmpty, read.segments.allSatisfy({ $0.mediaDuration != nil }) else { return [] }
        let declared = read.segments.reduce(0) { $0 + $1.declaredDuration }
        let measured = read.segments.reduce(0) { $0 + ($1.mediaDuration ?? 0) }
        let frame = read.segments.compactMap(\.frameDuration).max() ?? 0
        guard abs(declared - measured) > frame + 0.001 else { return [] }
        return [Finding(
            rule: "apple:8.1",
            message: "EXTINF durations add up to \(seconds(declared)) but the media lasts \(seconds(measured)) (\(seconds(abs(declared - measured))) apart, more than a frame of \(seconds(frame)))",
            where: [read.uri], measured: rounded(measured), declared: rounded(declared))]
    }
}
