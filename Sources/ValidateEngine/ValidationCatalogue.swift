/// Every rule `validate` checks, as data (docs/validate.md lists the same rules): a rule outside this list
/// is never reported, and a rule in it has a pure function in `HLSRules` or `DASHRules` and a fixture that
/// makes it fire.
public enum ValidationCatalogue {
    /// RFC 8216 (August 2017), HTTP Live Streaming.
    public static let rfc8216 = "RFC 8216 (2017)"
    /// The HTTP Live Streaming Authoring Specification for Apple Devices, as published in 2025.
    public static let apple = "HLS Authoring Specification for Apple Devices (2025)"

    /// ISO/IEC 23009-1, MPEG-DASH: clause numbers as the first edition (2012) numbers them, the edition the
    /// numbers were confirmed in (docs/validate.md says how).
    public static let iso23009 = "ISO/IEC 23009-1:2012 (first edition) clause numbers"
    /// ETSI TS 103 285 (DVB-DASH) v1.4.1, as the DASH-IF conformance software cites it.
    public static let dvbDash = "ETSI TS 103 285 V1.4.1 (DVB-DASH)"

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
        ValidationRule(
            id: "iso23009-1:5.3.1.2", level: .must,
            statement: "The MPD has @profiles, @minBufferTime, @mediaPresentationDuration when static, @availabilityStartTime when dynamic, a Period, and a Representation in every AdaptationSet.",
            tolerance: "none", edition: iso23009, fixture: "mpdMinBufferTimeMissing"),
        ValidationRule(
            id: "iso23009-1:5.3.5.2", level: .must,
            statement: "Every Representation has an @id unique in its Period, a whole-number @bandwidth, @mimeType (on it or its AdaptationSet) and a way to its segments.",
            tolerance: "none", edition: iso23009, fixture: "representationBandwidthMissing"),
        ValidationRule(
            id: "iso23009-1:5.3.5.2@bandwidth", level: .must,
            statement: "A constant-bit-rate channel of @bandwidth, delivering from any segment start with @minBufferTime buffered before playout, never runs dry.",
            tolerance: "none: the smallest such rate is computed from every packet's bytes and decode time; any @bandwidth at or above it passes",
            edition: iso23009, fixture: "dashBandwidthTooLow"),
        ValidationRule(
            id: "iso23009-1:5.3.5.2@codecs", level: .must,
            statement: "@codecs names the representation's codecs as its media has them, profile and level included.",
            tolerance: "a lower level than declared is accepted; what FFmpeg cannot tell is not reported", edition: iso23009,
            fixture: "dashCodecsWrong"),
        ValidationRule(
            id: "iso23009-1:5.3.5.2@width", level: .must, statement: "@width and @height are the video's picture size.",
            tolerance: "none", edition: iso23009, fixture: "dashResolutionWrong"),
        ValidationRule(
            id: "iso23009-1:5.3.5.2@frameRate", level: .must,
            statement: "@frameRate is the video's frame rate (its frames over its media's duration).", tolerance: "1 %", edition: iso23009,
            fixture: "dashFrameRateWrong"),
        ValidationRule(
            id: "dvb-dash:5.1.2", level: .must, statement: "Every video media segment starts with a SAP of type 1 or 2 (its first sample a keyframe).",
            tolerance: "none", edition: dvbDash, fixture: "dashSegmentWithoutKeyframe"),
        ValidationRule(
            id: "iso23009-1:5.3.9.6", level: .must,
            statement: "Each segment's media starts and ends where the SegmentTimeline (or @duration) puts it, and that timeline has no gap or overlap.",
            tolerance: "one frame (the segment's longest packet) + 1 ms against the media; 1 ms between declared segments", edition: iso23009,
            fixture: "dashTimelineShifted"),
        ValidationRule(
            id: "iso23009-1:5.3.3.2@segmentAlignment", level: .must,
            statement: "In an AdaptationSet with @segmentAlignment true, the representations list as many segments and each starts at the same time in all.",
            tolerance: "the longest frame among them + 1 ms", edition: iso23009, fixture: "dashSegmentsMisaligned"),
        ValidationRule(
            id: "dvb-dash:4.7.2", level: .should, statement: "A dynamic (live) MPD has at least one UTCTiming element.",
            tolerance: "none (its scheme and value are not judged)", edition: dvbDash, fixture: "dashLiveWithoutUTCTiming"),
        ValidationRule(
            id: "bufprobe:dash-coverage", level: .should, statement: "A DASH MPD's audio and video adaptation sets cover the same time.",
            tolerance: "0.1 s at either end", edition: bufprobe, fixture: "dashAudioShort"),
    ]

    /// The ids of the rules judged on a DASH MPD (`bufprobe:read` too); every other rule is judged on HLS.
    public static let dashRules: Set<String> = [
        "bufprobe:read", "iso23009-1:5.3.1.2", "iso23009-1:5.3.5.2", "iso23009-1:5.3.5.2@bandwidth", "iso23009-1:5.3.5.2@codecs",
        "iso23009-1:5.3.5.2@width", "iso23009-1:5.3.5.2@frameRate", "dvb-dash:5.1.2", "iso23009-1:5.3.9.6",
        "iso23009-1:5.3.3.2@segmentAlignment", "dvb-dash:4.7.2", "bufprobe:dash-coverage",
    ]

    /// The catalogue's rules judged on input of `format`, in catalogue order.
    public static func rules(for format: ValidationReport.Format) -> [ValidationRule] {
        rules.filter { $0.id == "bufprobe:read" || dashRules.contains($0.id) == (format == .dash) }
    }

    /// `findings` in catalogue order (the order reports list rules), each rule's findings in the order found.
    public static func ordered(_ findings: [Finding]) -> [Finding] {
        let order = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1.id, $0) })
        return findings.enumerated().sorted { lhs, rhs in
            let (left, right) = (order[lhs.element.rule] ?? .max, order[rhs.element.rule] ?? .max)
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
    }

    /// The rule with `id`, if the catalogue has one.
    public static func rule(_ id: String) -> ValidationRule? { rules.first { $0.id == id } }
}
