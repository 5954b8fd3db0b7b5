import MediaIO
@testable import ValidateEngine
import Testing


/// The pure rule functions on constructed inputs: each fires on what breaks it and stays quiet on what
/// does not.
@Suite struct HLSRulesTests {
    @Test("a measured rate no Int can hold (a segment of no duration) is written in a finding's percentage, never trapped on")
    func percentOfADegenerateRate() {
        #expect(HLSRules.percent(1_840_000, against: 1_100_000) == "+67 %")
        #expect(HLSRules.percent(.infinity, against: 1_100_000) == "+inf %")
        #expect(HLSRules.percent(1, against: 0) == "")
    }

    /// A media playlist read from `text`, with `segments` as read.
    static func media(_ text: String, segments: [SegmentRead] = [], role: PlaylistRead.Role = .media) throws -> PlaylistRead {
        var read = PlaylistRead(uri: "v/index.m3u8", role: role, playlist: try HLSPlaylist.parse(text), features: PlaylistFeatures(text: text))
        read.segments = segments
        return read
    }

    static func playlist(target: Int, durations: [String], version: Int? = 3, type: Bool = true, map: Bool = false) -> String {
        var text = "#EXTM3U\n" + (version.map { "#EXT-X-VERSION:\($0)\n" } ?? "") + "#EXT-X-TARGETDURATION:\(target)\n"
        if type { text += "#EXT-X-PLAYLIST-TYPE:VOD\n" }
        if map { text += "#EXT-X-MAP:URI=\"init.mp4\"\n" }
        for (index, duration) in durations.enumerated() { text += "#EXTINF:\(duration),\ns\(index).ts\n" }
        return text + "#EXT-X-ENDLIST\n"
    }

    static func segment(_ index: Int, extinf: Double = 2, bytes: Int64 = 100_000, media: Double? = 2, keyframe: Bool? = true) -> SegmentRead {
        SegmentRead(
            index: index, uri: "v/s\(index).ts", declaredDuration: extinf, bytes: bytes, mediaDuration: media, frameDuration: 0.04,
            startsWithKeyframe: keyframe)
    }

    @Test func extinfRoundedAboveTargetDurationBreaks4331() throws {
        #expect(HLSRules.targetDuration(try Self.media(Self.playlist(target: 2, durations: ["2.4", "2.49"]))).isEmpty)
        let found = HLSRules.targetDuration(try Self.media(Self.playlist(target: 2, durations: ["2.0", "2.5", "2.6"])))
        #expect(found.map(\.rule) == ["rfc8216:4.3.3.1"])
        #expect(found.first?.count == 2 && found.first?.total == 3)
        #expect(found.first?.message.contains("in 2 of 3 segments") == true)
    }

    @Test func versionBelowTheFeaturesBreaks4312() throws {
        #expect(HLSRules.version(try Self.media(Self.playlist(target: 2, durations: ["2.0"], version: 3))).isEmpty)
        #expect(HLSRules.version(try Self.media(Self.playlist(target: 2, durations: ["2"], version: nil))).isEmpty)
        let float = HLSRules.version(try Self.media(Self.playlist(target: 2, durations: ["2.0"], version: nil)))
        #expect(float.first?.message == "there is no EXT-X-VERSION (version 1) but EXTINF durations with decimals needs version 3")
        let map = HLSRules.version(try Self.media(Self.playlist(target: 2, durations: ["2.0"], version: 5, map: true)))
        #expect(map.first?.measured == 6 && map.first?.declared == 5)
        #expect(HLSRules.version(try Self.media(Self.playlist(target: 2, durations: ["2.0"], version: 6, map: true))).isEmpty)
    }

    @Test func vodPlaylistWithoutTypeBreaks86() throws {
        #expect(HLSRules.playlistType(try Self.media(Self.playlist(target: 2, durations: ["2"]))).isEmpty)
        #expect(HLSRules.playlistType(try Self.media(Self.playlist(target: 2, durations: ["2"], type: false))).map(\.rule) == ["apple:8.6"])
    }

    @Test func segmentStartingWithoutKeyframeBreaks74() throws {
        let text = Self.playlist(target: 2, durations: ["2", "2", "2"])
        let clean = try Self.media(text, segments: [Self.segment(0), Self.segment(1), Self.segment(2, keyframe: nil)])
        #expect(HLSRules.keyframeStart(clean).isEmpty)
        let broken = try Self.media(text, segments: [Self.segment(0), Self.segment(1, keyframe: false), Self.segment(2)])
        let found = HLSRules.keyframeStart(broken)
        #expect(found.first?.count == 1 && found.first?.total == 3)
        #expect(found.first?.where == ["v/index.m3u8", "v/s1.ts"])
    }

    @Test func mediaLongerThanTargetPlusHalfSecondBreaks77() throws {
        let text = Self.playlist(target: 2, durations: ["2", "2"])
        #expect(HLSRules.segmentDuration(try Self.media(text, segments: [Self.segment(0, media: 2.5), Self.segment(1)])).isEmpty)
        let found = HLSRules.segmentDuration(try Self.media(text, segments: [Self.segment(0, media: 2.56), Self.segment(1)]))
        #expect(found.first?.rule == "apple:7.7" && found.first?.measured == 2.56)
    }

    @Test func extinfSumMoreThanAFrameFromTheMediaBreaks81() throws {
        let text = Self.playlist(target: 2, durations: ["2", "2"])
        let withinFrame = try Self.media(text, segments: [Self.segment(0, media: 1.97), Self.segment(1)])
        #expect(HLSRules.durationSum(withinFrame).isEmpty)
        let off = try Self.media(text, segments: [Self.segment(0, media: 1.5), Self.segment(1)])
        #expect(HLSRules.durationSum(off).first?.declared == 4)
        // Judged only when every segment was read.
        let partial = try Self.media(text, segments: [Self.segment(0, media: 1.5)])
        #expect(HLSRules.durationSum(partial).isEmpty)
    }

    @Test func peakIsTheLargestRunOfHalfToOneAndAHalfTargetDurations() throws {
        // 1 s segments, target 2: runs of 1 to 3 s; the 300 kB segment with a neighbour is the peak run.
        let sizes: [(bytes: Int64, duration: Double)] = [(100_000, 1), (300_000, 1), (100_000, 1), (100_000, 1)]
        let figures = try #require(SegmentBitRates.measure(sizes, targetDuration: 2))
        #expect(figures.peak == 2_400_000)
        #expect(figures.average == 1_200_000)
        // No target: each segment alone.
        #expect(SegmentBitRates.measure(sizes, targetDuration: nil)?.peak == 2_400_000)
        #expect(SegmentBitRates.measure([(100, 0)], targetDuration: 2) == nil)
    }

    static func stream(bandwidth: Int, average: Int?, sizes: [Int64], master: String? = nil) throws -> StreamRead {
        var read = StreamRead(source: "master.m3u8")
        let text = master ?? "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=\(bandwidth)\(average.map { ",AVERAGE-BANDWIDTH=\($0)" } ?? ""),CODECS=\"avc1.4d401e\",RESOLUTION=320x240\nv/index.m3u8\n"
        let parsed = try HLSPlaylist.parse(text)
        read.multivariant = PlaylistRead(uri: "master.m3u8", role: .multivariant, playlist: parsed, features: PlaylistFeatures(text: text))
        let segments = sizes.enumerated().map { Self.segment($0.offset, bytes: $0.element) }
        read.playlists = [try Self.media(Self.playlist(target: 2, durations: sizes.map { _ in "2" }), segments: segments, role: .variant)]
        read.variants = parsed.variants.enumerated().map { StreamRead.Variant(declared: $0.element, number: $0.offset + 1, playlist: 0) }
        return read
    }

    @Test func peakOverBandwidthBreaks127WithItsFigures() throws {
        // Segments of 230 kB and 200 kB over 2 s: peak 920 kbit/s, average 860 kbit/s.
        let clean = try Self.stream(bandwidth: 920_000, average: 860_000, sizes: [230_000, 200_000])
        #expect(HLSRules.bitRates(clean).isEmpty)
        let high = try Self.stream(bandwidth: 550_000, average: 860_000, sizes: [230_000, 200_000])
        let found = HLSRules.bitRates(high)
        #expect(found.map(\.rule) == ["apple:1.27"])
        #expect(found.first?.message == "variant 1: measured peak 920 kbit/s, BANDWIDTH 550 kbit/s, +67 %")
        // Within 10 % means below too: a BANDWIDTH far above the media is as wrong.
        #expect(HLSRules.bitRates(try Self.stream(bandwidth: 2_000_000, average: 860_000, sizes: [230_000, 200_000])).map(\.rule) == ["apple:1.27"])
    }

    @Test func averageOffAverageBandwidthBreaks126AndPeakOverTwiceAverageBreaks128() throws {
        let average = HLSRules.bitRates(try Self.stream(bandwidth: 920_000, average: 700_000, sizes: [230_000, 200_000]))
        #expect(average.map(\.rule) == ["apple:1.26"])
        // 1,000 kB then three of 100 kB: peak 4 Mbit/s, average 1.3 Mbit/s.
        let spiky = HLSRules.bitRates(try Self.stream(bandwidth: 4_000_000, average: 1_300_000, sizes: [1_000_000, 100_000, 100_000, 100_000]))
        #expect(spiky.map(\.rule) == ["apple:1.28"])
    }

    @Test func attributesMissingOrWrongBreak91To94() throws {
        let master = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=920000,CODECS=\"avc1.4d401e\"\nv/index.m3u8\n"
        var read = try Self.stream(bandwidth: 0, average: nil, sizes: [230_000], master: master)
        read.playlists[0].segments[0].streams = [.init(type: .video, codec: "h264", profileID: 77, level: 30, width: 320, height: 240)]
        #expect(Set(HLSRules.variantAttributes(read).map(\.rule)) == ["apple:9.1", "apple:9.3"])
        var wrong = try Self.stream(bandwidth: 920_000, average: 860_000, sizes: [230_000])
        wrong.playlists[0].segments[0].streams = [.init(type: .video, codec: "hevc", profileID: 1, level: 93, width: 640, height: 360)]
        #expect(Set(HLSRules.variantAttributes(wrong).map(\.rule)) == ["apple:9.2", "apple:9.4"])
        var right = try Self.stream(bandwidth: 920_000, average: 860_000, sizes: [230_000])
        right.playlists[0].segments[0].streams = [.init(type: .video, codec: "h264", profileID: 77, level: 30, width: 320, height: 240)]
        #expect(HLSRules.variantAttributes(right).isEmpty)
    }

    @Test func oneBitRateBreaks99() throws {
        let one = try Self.stream(bandwidth: 920_000, average: 860_000, sizes: [230_000])
        #expect(HLSRules.bitRateLadder(one).map(\.rule) == ["apple:9.9"])
        let text = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=920000\nv/index.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=400000\nv/index.m3u8\n"
        #expect(HLSRules.bitRateLadder(try Self.stream(bandwidth: 0, average: nil, sizes: [230_000], master: text)).isEmpty)
    }

    @Test func unreadableSegmentIsAReadFinding() throws {
        var read = try Self.stream(bandwidth: 920_000, average: 860_000, sizes: [230_000, 200_000])
        read.playlists[0].segments[1] = SegmentRead(index: 1, uri: "v/s1.ts", declaredDuration: 2, error: "answered HTTP 404")
        let found = HLSRules.unreadable(read)
        #expect(found.first?.message == "a segment answered HTTP 404 (v/s1.ts); 1 of 2 segments read failed")
    }
}

/// What a bound left unread, as the report names it.
@Suite struct NotReadRangesTests {
    @Test func missingSegmentsAreNamedAsRangesFromOne() {
        #expect(StreamValidation.missingRanges(read: [0, 1, 3], count: 8) == "3, 5-8")
        #expect(StreamValidation.missingRanges(read: [], count: 1) == "1")
        #expect(StreamValidation.missingRanges(read: Array(stride(from: 0, to: 40, by: 2)), count: 40).hasSuffix("and 10 more ranges"))
    }
}

/// A variant whose audio is an `AUDIO` rendition group: its measured figures are its own playlist's plus
/// the group's largest (RFC 8216 §4.3.4.2's largest playable combination).
@Suite struct RenditionSumTests {
    @Test func variantWithAudioGroupMeasuresItsVideoPlusTheLargestRendition() throws {
        let master = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000000,AUDIO=\"a\"\nv/index.m3u8\n"
        var read = try HLSRulesTests.stream(bandwidth: 0, average: nil, sizes: [200_000, 200_000], master: master)
        let audio = HLSRulesTests.playlist(target: 2, durations: ["2", "2"])
        read.playlists.append(try HLSRulesTests.media(audio, segments: [HLSRulesTests.segment(0, bytes: 16_000), HLSRulesTests.segment(1, bytes: 16_000)], role: .rendition))
        read.playlists.append(try HLSRulesTests.media(audio, segments: [HLSRulesTests.segment(0, bytes: 32_000), HLSRulesTests.segment(1, bytes: 32_000)], role: .rendition))
        read.variants[0].audio = [1, 2]
        let figures = try #require(HLSRules.measured(read.variants[0], in: read))
        // 800 kbit/s of video and the larger rendition's 128 kbit/s.
        #expect(figures.peak == 928_000)
        #expect(figures.average == 928_000)
        #expect(HLSRules.bitRates(read).isEmpty)
    }
}
