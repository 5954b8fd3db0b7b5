/// Every rule `validate` checks, as data (docs/validate.md lists the same rules): a rule outside this list
/// is never reported, and a rule in it has a pure function in `HLSRules` and a fixture that makes it fire.
public enum ValidationCatalogue {
    /// RFC 8216 (August 2017), HTTP Live Streaming.
    public static let rfc8216 = "RFC 8216 (2017)"
    /// The HTTP Live Streaming Authoring Specification for Apple Devices, as published in 2025.
    public static let apple = "HLS Authoring Specification for Apple Devices (2025)"

    /// bufprobe's own rules: what no source numbers but a validation needs (what could not be read).
    public static let bufprobe = "bufprobe"

    /// The catalogue, in the order reports list rules.
    public static let rules: [ValidationRule] = [
        ValidationRule(
            id: "bufprobe:read", level: .must,
            statement: "Every media playlist and segment the stream names can be read and opened as media.",
            tolerance: "--timeout per request; a resource over the per-resource bound counts as unreadable", edition: bufprobe,
            fixture: "segmentMissing"),
        ValidationRule(
            id: "rfc8216:4.1", level: .must,
            statement: "Every playlist is UTF-8, without a byte order mark, and without control characters but CR and LF.",
            tolerance: "none", edition: rfc8216, fixture: "byteOrderMark"),
        ValidationRule(
            id: "rfc8216:4.3.4.2", level: .must,
            statement: "Every AUDIO, VIDEO, SUBTITLES or CLOSED-CAPTIONS group a variant names is declared by an EXT-X-MEDIA of that TYPE.",
            tolerance: "none", edition: rfc8216, fixture: "audioGroupUndeclared"),
        ValidationRule(
            id: "rfc8216:3.3", level: .must,
            statement: "Fragmented MP4 segments have their initialization section named by EXT-X-MAP.",
            tolerance: "none (a segment is fMP4 when its bytes start with a styp, moof, sidx, prft or emsg box)", edition: rfc8216,
            fixture: "mapMissing"),
        ValidationRule(
            id: "rfc8216:4.3.5.1", level: .must,
            statement: "Where EXT-X-INDEPENDENT-SEGMENTS is declared, every video segment starts with a keyframe (it decodes on its own).",
            tolerance: "none (the first video packet in decode order must be a keyframe)", edition: rfc8216,
            fixture: "independentButNotKeyframe"),
        ValidationRule(
            id: "rfc8216:4.3.3.1", level: .must,
            statement: "Every EXTINF duration, rounded to the nearest integer, is at most EXT-X-TARGETDURATION.",
            tolerance: "none (rounded as the RFC says)", edition: rfc8216, fixture: "targetDurationTooShort"),
        ValidationRule(
            id: "rfc8216:4.3.1.2", level: .must,
            statement: "EXT-X-VERSION is at least the version the playlist's features need (a playlist without it is version 1).",
            tolerance: "none", edition: rfc8216, fixture: "versionMissing"),
        ValidationRule(
            id: "apple:1.26", level: .must,
            statement: "For VOD, a variant's measured average segment bit rate is within 10 % of its AVERAGE-BANDWIDTH.",
            tolerance: "10 %, above or below", edition: apple, fixture: "averageBandwidthWrong"),
        ValidationRule(
            id: "apple:1.27", level: .must,
            statement: "For VOD, a variant's measured peak segment bit rate is within 10 % of its BANDWIDTH.",
            tolerance: "10 %, above or below", edition: apple, fixture: "bandwidthWrong"),
        ValidationRule(
            id: "apple:1.28", level: .should,
            statement: "For VOD, a variant's peak segment bit rate is at most 200 % of its average segment bit rate.",
            tolerance: "none", edition: apple, fixture: "paddedSegment"),
        ValidationRule(
            id: "apple:7.4", level: .must,
            statement: "Every video segment starts with a keyframe (an IDR picture).",
            tolerance: "none", edition: apple, fixture: "segmentWithoutKeyframe"),
        ValidationRule(
            id: "apple:7.7", level: .must,
            statement: "No segment's media lasts longer than EXT-X-TARGETDURATION plus 0.5 s.",
            tolerance: "0.5 s, as the rule states", edition: apple, fixture: "targetDurationTooShort"),
        ValidationRule(
            id: "apple:8.1", level: .must,
            statement: "A media playlist's EXTINF durations add up to its media's real duration, within one frame.",
            tolerance: "one frame (the longest packet duration read), plus 1 ms of rounding", edition: apple,
            fixture: "extinfShortened"),
        ValidationRule(
            id: "apple:8.6", level: .must,
            statement: "A VOD media playlist (one with EXT-X-ENDLIST) carries EXT-X-PLAYLIST-TYPE.",
            tolerance: "none", edition: apple, fixture: "playlistTypeMissing"),
        ValidationRule(
            id: "apple:9.1", level: .must,
            statement: "Every EXT-X-STREAM-INF has BANDWIDTH, AVERAGE-BANDWIDTH and CODECS.",
            tolerance: "none", edition: apple, fixture: "attributesMissing"),
        ValidationRule(
            id: "apple:9.2", level: .must,
            statement: "CODECS names every codec the variant's media has (and no other), profile and level included.",
            tolerance: "a lower level than declared is accepted; what FFmpeg cannot tell is not reported", edition: apple,
            fixture: "codecsWrong"),
        ValidationRule(
            id: "apple:9.3", level: .must,
            statement: "Every EXT-X-STREAM-INF of a variant with video has RESOLUTION.",
            tolerance: "none", edition: apple, fixture: "attributesMissing"),
        ValidationRule(
            id: "apple:9.4", level: .must,
            statement: "RESOLUTION is the video's real picture size.",
            tolerance: "none", edition: apple, fixture: "resolutionWrong"),
        ValidationRule(
            id: "apple:9.9", level: .should,
            statement: "A multivariant playlist offers several bit rates (at least two variants of different BANDWIDTH).",
            tolerance: "none", edition: apple, fixture: "singleVariant"),
    ]

    /// The rule with `id`, if the catalogue has one.
    public static func rule(_ id: String) -> ValidationRule? { rules.first { $0.id == id } }
}
