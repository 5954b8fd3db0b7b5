import MediaIO
import Testing
@testable import ValidateEngine

/// The structure rules (RFC 8216 §3.3, §4.1, §4.3.4.2, §4.3.5.1) on constructed inputs: each fires on what
/// breaks it and stays quiet on what does not.
@Suite struct HLSStructureRulesTests {
    static func multivariant(_ text: String) throws -> PlaylistRead {
        PlaylistRead(uri: "master.m3u8", role: .multivariant, playlist: try HLSPlaylist.parse(text), features: PlaylistFeatures(bytes: Array(text.utf8)))
    }

    @Test func byteOrderMarkInvalidUTF8AndControlCharactersBreak41() {
        #expect(PlaylistFeatures.encodingProblem(Array("#EXTM3U\r\n#EXT-X-ENDLIST\n".utf8)) == nil)
        #expect(PlaylistFeatures.encodingProblem([0xEF, 0xBB, 0xBF] + Array("#EXTM3U\n".utf8)) == "starts with a byte order mark")
        #expect(PlaylistFeatures.encodingProblem(Array("#EXTM3U\n".utf8) + [0xC3, 0x28]) == "is not valid UTF-8")
        #expect(PlaylistFeatures.encodingProblem(Array("#EXTM3U\n#EXTINF:2,\tx\n".utf8)) == "contains the control character U+0009 (line 2)")
        #expect(PlaylistFeatures.encodingProblem(Array("#EXTM3U\n\u{85}".utf8))?.contains("U+0085") == true)
        // Non-ASCII text is fine: UTF-8 is the rule.
        #expect(PlaylistFeatures.encodingProblem(Array("#EXTM3U\n#EXT-X-MEDIA:NAME=\"Français\"\n".utf8)) == nil)
        var read = PlaylistRead(uri: "v.m3u8", role: .media, playlist: nil, features: PlaylistFeatures(bytes: [0xEF, 0xBB, 0xBF] + Array("#EXTM3U\n".utf8)))
        #expect(HLSRules.encoding(read).map(\.rule) == ["rfc8216:4.1"])
        read.features = PlaylistFeatures(bytes: Array("#EXTM3U\n".utf8))
        #expect(HLSRules.encoding(read).isEmpty)
    }

    @Test func undeclaredGroupBreaks4342OncePerGroupAndTypeMatters() throws {
        let fine = """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="en",URI="a/en.m3u8"
            #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="en",INSTREAM-ID="CC1"
            #EXT-X-STREAM-INF:BANDWIDTH=1000000,AUDIO="aac",CLOSED-CAPTIONS="cc"
            v1.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2000000,AUDIO="aac",CLOSED-CAPTIONS=NONE
            v2.m3u8

            """
        #expect(HLSRules.groupReferences(try Self.multivariant(fine)).isEmpty)
        let broken = """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="aac",NAME="en",URI="s/en.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=1000000,AUDIO="aac",SUBTITLES="subs"
            v1.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2000000,AUDIO="aac"
            v2.m3u8

            """
        let found = HLSRules.groupReferences(try Self.multivariant(broken))
        #expect(found.map(\.rule) == ["rfc8216:4.3.4.2", "rfc8216:4.3.4.2"])
        #expect(found.first?.message == "AUDIO=\"aac\" (variants 1, 2) names no EXT-X-MEDIA with TYPE=AUDIO and that GROUP-ID")
        #expect(found.first?.count == 2 && found.first?.total == 2)
        #expect(found.last?.message.hasPrefix("SUBTITLES=\"subs\" (variant 1)") == true)
    }

    @Test func fragmentWithoutMapBreaks33AndMPEGTSDoesNot() throws {
        func read(map: Bool, box: String?) throws -> PlaylistRead {
            var read = try HLSRulesTests.media(HLSRulesTests.playlist(target: 2, durations: ["2.0", "2.0"], version: 7, map: map))
            read.segments = [HLSRulesTests.segment(0), HLSRulesTests.segment(1)].map { segment in
                var segment = segment
                segment.firstBox = box
                return segment
            }
            return read
        }
        #expect(HLSRules.initializationSection(try read(map: true, box: "moof")).isEmpty)
        #expect(HLSRules.initializationSection(try read(map: false, box: nil)).isEmpty, "MPEG-TS starts with no box")
        let found = HLSRules.initializationSection(try read(map: false, box: "styp"))
        #expect(found.map(\.rule) == ["rfc8216:3.3"])
        #expect(found.first?.count == 2 && found.first?.total == 2)
        #expect(SegmentReader.firstBox([0, 0, 0, 0x18] + Array("stypmsdh".utf8)) == "styp")
        #expect(SegmentReader.firstBox([0x47, 0x40, 0x11, 0x10, 0, 0x42, 0xF0, 0x25]) == nil, "an MPEG-TS packet")
        #expect(SegmentReader.firstBox([0, 0, 0, 4] + Array("moof".utf8)) == nil, "a size below a box header")
    }

    @Test func independentSegmentsDeclaredButNotKeyframeBreaks4351() throws {
        let declared = HLSRulesTests.playlist(target: 2, durations: ["2.0", "2.0"]).replacingOccurrences(
            of: "#EXT-X-TARGETDURATION", with: "#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-TARGETDURATION")
        var stream = StreamRead(source: "v/index.m3u8")
        stream.playlists = [try HLSRulesTests.media(declared, segments: [HLSRulesTests.segment(0), HLSRulesTests.segment(1, keyframe: false)])]
        let found = HLSRules.independentSegments(stream)
        #expect(found.map(\.rule) == ["rfc8216:4.3.5.1"])
        #expect(found.first?.message.contains("in 1 of 2 video segments") == true)
        // Not declared: apple:7.4's business, not this rule's.
        stream.playlists = [try HLSRulesTests.media(
            HLSRulesTests.playlist(target: 2, durations: ["2.0", "2.0"]), segments: [HLSRulesTests.segment(0, keyframe: false)])]
        #expect(HLSRules.independentSegments(stream).isEmpty)
        // Declared in the multivariant playlist: it holds for every media playlist.
        stream.multivariant = try Self.multivariant("#EXTM3U\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv/index.m3u8\n")
        #expect(HLSRules.independentSegments(stream).first?.message.hasPrefix("the multivariant playlist declares") == true)
    }
}
