import Foundation
import MediaIO
import Testing

/// The LL-HLS tags of RFC 8216bis: parts, preload hints, delta updates, rendition reports.
@Suite("HLSPlaylist reads the low-latency tags")
struct HLSPlaylistLowLatencyTests {
    static let live = """
        #EXTM3U
        #EXT-X-TARGETDURATION:3
        #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.0,CAN-SKIP-UNTIL=12
        #EXT-X-PART-INF:PART-TARGET=0.4
        #EXT-X-MEDIA-SEQUENCE:10
        #EXT-X-MAP:URI="init.mp4"
        #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z
        #EXTINF:2.4,
        seg10.m4s
        #EXT-X-PART:DURATION=0.4,URI="part11.0.m4s",INDEPENDENT=YES
        #EXT-X-PART:DURATION=0.4,URI="part11.1.m4s"
        #EXTINF:0.8,
        seg11.m4s
        #EXT-X-PART:DURATION=0.4,URI="part12.0.m4s",INDEPENDENT=YES
        #EXT-X-PART:DURATION=0.4,URI="all12.m4s",BYTERANGE=100@0
        #EXT-X-PART:DURATION=0.4,URI="all12.m4s",BYTERANGE=50,GAP=YES
        #EXT-X-PRELOAD-HINT:TYPE=PART,URI="part12.3.m4s"
        #EXT-X-PRELOAD-HINT:TYPE=MAP,URI="init2.mp4",BYTERANGE-START=10,BYTERANGE-LENGTH=20
        #EXT-X-RENDITION-REPORT:URI="../audio/live.m3u8",LAST-MSN=12,LAST-PART=1

        """

    @Test("parts belong to the segment after them, trailing parts are the segment in progress, numbered and dated")
    func partsBelongToTheirSegment() throws {
        let playlist = try HLSPlaylist.parse(Self.live)
        #expect(playlist.segments.map(\.parts.count) == [0, 2])
        let parts = playlist.segments[1].parts
        #expect(parts.map(\.uri) == ["part11.0.m4s", "part11.1.m4s"])
        #expect(parts.map(\.sequence) == [11, 11])
        #expect(parts.map(\.index) == [0, 1])
        #expect(parts.map(\.independent) == [true, false])
        let start = try #require(playlist.segments[0].programDateTime)
        #expect(parts[0].programDateTime == start + 2.4)
        #expect(abs((parts[1].programDateTime ?? 0) - (start + 2.8)) < 1e-6)
        #expect(parts[0].map?.uri == "init.mp4")
        let trailing = playlist.trailingParts
        #expect(trailing.map(\.sequence) == [12, 12, 12])
        #expect(trailing.map(\.index) == [0, 1, 2])
        #expect(trailing[1].byteRange == HLSPlaylist.ByteRange(length: 100, offset: 0))
        // An omitted offset follows the previous range of the same URI.
        #expect(trailing[2].byteRange == HLSPlaylist.ByteRange(length: 50, offset: 100))
        #expect(trailing.map(\.gap) == [false, false, true])
        #expect(abs((trailing[0].programDateTime ?? 0) - (start + 3.2)) < 1e-6)
        #expect(playlist.allParts.count == 5)
    }

    @Test("preload hints and rendition reports are read with their attributes")
    func hintsAndReports() throws {
        let playlist = try HLSPlaylist.parse(Self.live)
        #expect(playlist.preloadHints.count == 2)
        #expect(playlist.preloadHints[0].type == "PART")
        #expect(playlist.preloadHints[0].uri == "part12.3.m4s")
        #expect(playlist.preloadHints[1].byteRangeStart == 10)
        #expect(playlist.preloadHints[1].byteRangeLength == 20)
        #expect(playlist.renditionReports.map(\.uri) == ["../audio/live.m3u8"])
        #expect(playlist.renditionReports.first?.lastSequence == 12)
        #expect(playlist.renditionReports.first?.lastPart == 1)
    }

    @Test("a delta update numbers its first segment after the skipped ones")
    func deltaUpdate() throws {
        let playlist = try HLSPlaylist.parse("""
            #EXTM3U
            #EXT-X-TARGETDURATION:3
            #EXT-X-MEDIA-SEQUENCE:10
            #EXT-X-SKIP:SKIPPED-SEGMENTS=3,RECENTLY-REMOVED-DATERANGES="a\tb"
            #EXTINF:2.4,
            seg13.m4s
            #EXT-X-PART:DURATION=0.4,URI="part14.0.m4s"
            """)
        #expect(playlist.isDeltaUpdate)
        #expect(playlist.skippedSegments == 3)
        #expect(playlist.recentlyRemovedDateRanges == ["a", "b"])
        #expect(playlist.segments.map(\.sequence) == [13])
        #expect(playlist.trailingParts.map(\.sequence) == [14])
    }

    @Test("a part without a URI or a duration, and an EXT-X-SKIP after a segment, are errors naming the line")
    func malformed() {
        #expect(throws: HLSPlaylistError.self) { try HLSPlaylist.parse("#EXTM3U\n#EXT-X-PART:DURATION=0.4\n") }
        #expect(throws: HLSPlaylistError.self) { try HLSPlaylist.parse("#EXTM3U\n#EXT-X-PART:URI=\"a\",DURATION=x\n") }
        #expect(throws: HLSPlaylistError.self) {
            try HLSPlaylist.parse("#EXTM3U\n#EXTINF:1,\na.ts\n#EXT-X-SKIP:SKIPPED-SEGMENTS=1\n")
        }
    }

    @Test("a playlist of 200,000 parts keeps the newest 10,000, and the next part after the last is found from the end")
    func manyPartsAreBounded() throws {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-PART-INF:PART-TARGET=0.1\n"
        for segment in 0..<20_000 {
            for part in 0..<10 { text += "#EXT-X-PART:DURATION=0.1,URI=\"p\(segment).\(part)\"\n" }
            text += "#EXTINF:1,\ns\(segment)\n"
        }
        let playlist = try HLSPlaylist.parse(text)
        #expect(playlist.allParts.count == HLSPlaylist.maxParts)
        #expect(playlist.allParts.last?.uri == "p19999.9")
        #expect(playlist.segments.count == 20_000)
    }

    @Test("the client starts at the newest INDEPENDENT part at least PART-HOLD-BACK from the edge")
    func startPart() throws {
        let playlist = try HLSPlaylist.parse(Self.live)
        // From the end: 0.4 (gap part), 0.8, 1.2 reaches 1.0 at part12.0, which is independent.
        #expect(LowLatencyHLSClient.startPart(in: playlist, holdBack: 1.0)?.uri == "part12.0.m4s")
        // 1.3 s back lands on part11.1, not independent: back to part11.0.
        #expect(LowLatencyHLSClient.startPart(in: playlist, holdBack: 1.3)?.uri == "part11.0.m4s")
        // Part 2 past segment 11's last part is part 0 of segment 12 (RFC 8216bis 6.2.5.2).
        guard case .part(let next) = LowLatencyHLSClient.find(sequence: 11, index: 2, in: playlist) else {
            Issue.record("part 11.2 was not resolved to 12.0")
            return
        }
        #expect(next.uri == "part12.0.m4s")
        #expect(LowLatencyHLSClient.find(sequence: 12, index: 3, in: playlist) == nil)
    }
}
