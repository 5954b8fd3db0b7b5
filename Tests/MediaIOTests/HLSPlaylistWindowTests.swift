import Foundation
import MediaIO
import Testing

@Suite("HLSPlaylistWindow")
struct HLSPlaylistWindowTests {
    private func window(_ text: String, keeping limit: Int) -> String? {
        HLSPlaylistWindow.window(Array(text.utf8), keeping: limit).map { String(decoding: $0, as: UTF8.self) }
    }

    /// A live playlist of `count` segments from media sequence `first`, with a key change at segment 3,
    /// discontinuities before segments 2 and 6, an init section, and byte ranges without offsets.
    private func live(_ count: Int, first: Int = 100, end: String = "") -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:2", "#EXT-X-MEDIA-SEQUENCE:\(first)",
                     "#EXT-X-DISCONTINUITY-SEQUENCE:4", "#EXT-X-MAP:URI=\"init.mp4\"",
                     "#EXT-X-KEY:METHOD=AES-128,URI=\"k0.key\""]
        for index in 0..<count {
            if index == 3 { lines.append("#EXT-X-KEY:METHOD=AES-128,URI=\"k1.key\"") }
            if index == 2 || index == 6 { lines.append("#EXT-X-DISCONTINUITY") }
            // The first range starts at 0; each later one where the previous ended (no offset written).
            lines += ["#EXTINF:2.000,", "#EXT-X-BYTERANGE:\(1000 + index)\(index == 0 ? "@0" : "")", "media.mp4"]
        }
        return (lines + [end]).joined(separator: "\n")
    }

    @Test("a live playlist within the window, a VOD one and a master are left whole")
    func leftWhole() {
        #expect(window(live(8), keeping: 8) == nil)
        #expect(window(live(20, end: "#EXT-X-ENDLIST"), keeping: 8) == nil)
        let master = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2\nb.m3u8\n"
        #expect(window(master, keeping: 1) == nil)
    }

    @Test("the window lists the last segments with the sequence numbers, URIs, ranges and maps FFmpeg read in the whole")
    func windowIsASuffix() throws {
        for limit in [1, 3, 4, 5, 7] {
            let whole = try HLSPlaylist.parse(live(10))
            let text = try #require(window(live(10), keeping: limit))
            let kept = try HLSPlaylist.parse(text)
            #expect(kept.segments == Array(whole.segments.suffix(limit)), "keeping \(limit)")
            #expect(kept.mediaSequence == 100 + 10 - limit)
            #expect(kept.targetDuration == 2)
            // Dropped discontinuities: before segment 2 (dropped when limit <= 7) and 6 (when limit <= 3).
            let dropped = (10 - limit > 2 ? 1 : 0) + (10 - limit > 6 ? 1 : 0)
            #expect(kept.discontinuitySequence == 4 + dropped, "keeping \(limit)")
            // The key in force at the window's first segment comes before it.
            let firstSegment = try #require(text.range(of: "#EXTINF"))
            let key = 10 - limit > 3 ? "k1.key" : "k0.key"
            #expect(text[..<firstSegment.lowerBound].contains(key), "keeping \(limit): \(text)")
        }
    }

    @Test("a playlist that grows without sliding costs the window, not its size")
    func growingPlaylist() throws {
        var lines = ["#EXTM3U", "#EXT-X-TARGETDURATION:2"]
        for index in 0..<50_000 { lines += ["#EXTINF:2.0,", "seg\(index % 3).ts?n=\(index)"] }
        let whole = Array(lines.joined(separator: "\n").utf8)
        let windowed = try #require(HLSPlaylistWindow.window(whole, keeping: 1_000))
        #expect(windowed.count < whole.count / 40)
        let kept = try HLSPlaylist.parse(String(decoding: windowed, as: UTF8.self))
        #expect(kept.segments.count == 1_000)
        #expect(kept.mediaSequence == 49_000)
        #expect(kept.segments.first?.uri == "seg1.ts?n=49000")
        #expect(kept.segments.last?.sequence == 49_999)
    }

    @Test("a media sequence near the largest integer saturates instead of trapping")
    func hostileSequence() throws {
        let text = try #require(window(live(10, first: Int.max - 2), keeping: 1))
        #expect(try HLSPlaylist.parse(text).mediaSequence == Int.max)
    }
}
