import Foundation
import MediaIO
import Testing

@Suite("HLSPlaylist")
struct HLSPlaylistTests {
    @Test("a master playlist lists each variant's bandwidth, average, resolution, codecs and URI in order")
    func masterPlaylist() throws {
        let text = """
            #EXTM3U
            #EXT-X-VERSION:6
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-STREAM-INF:BANDWIDTH=1280000,AVERAGE-BANDWIDTH=1000000,RESOLUTION=640x360,CODECS="avc1.4d401e,mp4a.40.2",FRAME-RATE=29.970
            low/index.m3u8
            #EXT-X-STREAM-INF:CODECS="avc1.64001f,mp4a.40.2",BANDWIDTH=2560000,RESOLUTION=1280x720
            http://example.invalid/high/index.m3u8
            """
        let playlist = try HLSPlaylist.parse(text)
        #expect(playlist.kind == .master)
        #expect(playlist.version == 6)
        #expect(playlist.variants.count == 2)
        let low = playlist.variants[0]
        #expect(low.uri == "low/index.m3u8")
        #expect(low.bandwidth == 1_280_000)
        #expect(low.averageBandwidth == 1_000_000)
        #expect(low.resolution == HLSPlaylist.Resolution(width: 640, height: 360))
        #expect(low.codecs == "avc1.4d401e,mp4a.40.2")
        #expect(low.frameRate == 29.97)
        let high = playlist.variants[1]
        #expect(high.bandwidth == 2_560_000)
        #expect(high.averageBandwidth == nil)
        #expect(high.codecs == "avc1.64001f,mp4a.40.2")
        #expect(high.uri == "http://example.invalid/high/index.m3u8")
    }

    @Test("a media playlist keeps target duration, sequence numbers, durations, titles and the end list")
    func mediaPlaylist() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-MEDIA-SEQUENCE:7
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXTINF:4.0,first
            seg0.ts
            #EXTINF:3.5,
            seg1.ts
            #EXT-X-DISCONTINUITY
            #EXTINF:2.25
            seg2.ts
            #EXT-X-ENDLIST
            """
        let playlist = try HLSPlaylist.parse(text)
        #expect(playlist.kind == .media)
        #expect(playlist.targetDuration == 4)
        #expect(playlist.playlistType == "VOD")
        #expect(playlist.hasEndList)
        #expect(playlist.segments.map(\.uri) == ["seg0.ts", "seg1.ts", "seg2.ts"])
        #expect(playlist.segments.map(\.duration) == [4.0, 3.5, 2.25])
        #expect(playlist.segments.map(\.sequence) == [7, 8, 9])
        #expect(playlist.segments.map(\.title) == ["first", nil, nil])
        #expect(playlist.segments.map(\.discontinuity) == [false, false, true])
        #expect(playlist.totalDuration == 9.75)
    }

    @Test("a byte range without an offset starts right after the previous range of the same URI")
    func byteRanges() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:2
            #EXT-X-MAP:URI="main.mp4",BYTERANGE="800@0"
            #EXTINF:2,
            #EXT-X-BYTERANGE:1000@800
            main.mp4
            #EXTINF:2,
            #EXT-X-BYTERANGE:1500
            main.mp4
            """
        let playlist = try HLSPlaylist.parse(text)
        #expect(playlist.segments[0].byteRange == HLSPlaylist.ByteRange(length: 1000, offset: 800))
        #expect(playlist.segments[1].byteRange == HLSPlaylist.ByteRange(length: 1500, offset: 1800))
        #expect(playlist.segments[1].map == HLSPlaylist.Map(uri: "main.mp4", byteRange: .init(length: 800, offset: 0)))
        #expect(playlist.hasEndList == false)
    }

    @Test(
        "malformed playlists are rejected naming the line",
        arguments: [
            ("not a playlist", 1, "does not start with #EXTM3U"),
            ("#EXTM3U\n#EXTINF:abc,\nseg.ts", 2, "duration is not a number"),
            ("#EXTM3U\n#EXTINF:2,\n", 2, "no URI follows"),
            ("#EXTM3U\n#EXT-X-STREAM-INF:RESOLUTION=1x1\nv.m3u8", 2, "without a BANDWIDTH"),
            ("#EXTM3U\nseg.ts", 2, "no #EXTINF"),
            ("#EXTM3U\n#EXTINF:2,\n#EXT-X-BYTERANGE:100\nseg.ts", 3, "without an offset"),
        ])
    func malformed(text: String, line: Int, fragment: String) {
        #expect {
            _ = try HLSPlaylist.parse(text)
        } throws: { error in
            guard let error = error as? HLSPlaylistError else { return false }
            return error.line == line && error.description.contains(fragment)
        }
    }

    @Test("relative URIs resolve against the playlist's directory, absolute ones are kept")
    func resolving() {
        #expect(HLSPlaylist.resolve("seg1.ts", against: "/media/hls/low/index.m3u8") == "/media/hls/low/seg1.ts")
        #expect(HLSPlaylist.resolve("low/index.m3u8", against: "http://h/a/master.m3u8?x=1") == "http://h/a/low/index.m3u8")
        #expect(HLSPlaylist.resolve("/abs/seg.ts", against: "/media/index.m3u8") == "/abs/seg.ts")
        #expect(HLSPlaylist.resolve("seg.ts", against: "index.m3u8") == "seg.ts")
    }

    @Test("segment sizes come from the files next to the playlist, plus the map for the first segment")
    func segmentSizesFromDisk() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(count: 300).write(to: directory.appendingPathComponent("init.mp4"))
        try Data(count: 1000).write(to: directory.appendingPathComponent("a.m4s"))
        try Data(count: 2500).write(to: directory.appendingPathComponent("b.m4s"))
        let text = "#EXTM3U\n#EXT-X-MAP:URI=\"init.mp4\"\n#EXTINF:2,\na.m4s\n#EXTINF:2,\nb.m4s\n#EXT-X-ENDLIST\n"
        let path = directory.appendingPathComponent("index.m3u8").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(HLSPlaylist.isPlaylist(path: path))
        #expect(!HLSPlaylist.isPlaylist(path: directory.appendingPathComponent("a.m4s").path))
        let playlist = try HLSPlaylist.load(path: path)
        #expect(try playlist.segmentSizes(playlistPath: path) == [1300, 2500])
        // Separated, as a player fetches it: the map once by a request of its own.
        #expect(try playlist.segmentSizes(playlistPath: path, separatingInitialization: true) == [1000, 2500])
        #expect(try playlist.initializationSize(playlistPath: path) == 300)
        let changing = try HLSPlaylist.parse(
            "#EXTM3U\n#EXT-X-MAP:URI=\"init.mp4\"\n#EXTINF:2,\na.m4s\n#EXT-X-MAP:URI=\"a.m4s\",BYTERANGE=\"40@0\"\n#EXTINF:2,\nb.m4s\n")
        #expect(try changing.segmentSizes(playlistPath: path, separatingInitialization: true) == [1000, 2540])
        #expect(try HLSPlaylist.parse("#EXTM3U\n#EXTINF:2,\na.m4s\n").initializationSize(playlistPath: path) == 0)
        try FileManager.default.removeItem(at: directory.appendingPathComponent("b.m4s"))
        #expect(throws: HLSPlaylistError.self) { try playlist.segmentSizes(playlistPath: path) }
    }

    static let hostileAttributes: [(String, HLSPlaylist.Resolution?, Double?, Int?, [String])] = [
        ("RESOLUTION=99999999999x0", nil, nil, nil, ["RESOLUTION=99999999999x0"]),
        ("RESOLUTION=99999999999999999999999x1", nil, nil, nil, ["RESOLUTION=99999999999999999999999x1"]),
        ("RESOLUTION=-640x360", nil, nil, nil, ["RESOLUTION=-640x360"]),
        ("RESOLUTION=640x", nil, nil, nil, ["RESOLUTION=640x"]),
        ("RESOLUTION=640x360x2", nil, nil, nil, ["RESOLUTION=640x360x2"]),
        ("RESOLUTION=65535x65535", HLSPlaylist.Resolution(width: 65535, height: 65535), nil, nil, []),
        ("FRAME-RATE=nan", nil, nil, nil, ["FRAME-RATE=nan"]),
        ("FRAME-RATE=inf", nil, nil, nil, ["FRAME-RATE=inf"]),
        ("FRAME-RATE=-25", nil, nil, nil, ["FRAME-RATE=-25"]),
        ("FRAME-RATE=0", nil, nil, nil, ["FRAME-RATE=0"]),
        ("FRAME-RATE=1e308", nil, nil, nil, ["FRAME-RATE=1e308"]),
        ("FRAME-RATE=29.97", nil, 29.97, nil, []),
        ("AVERAGE-BANDWIDTH=-1", nil, nil, nil, ["AVERAGE-BANDWIDTH=-1"]),
        ("AVERAGE-BANDWIDTH=99999999999999999999999", nil, nil, nil, ["AVERAGE-BANDWIDTH=99999999999999999999999"]),
        ("AVERAGE-BANDWIDTH=500000", nil, nil, 500_000, []),
    ]

    @Test("a STREAM-INF attribute no picture or rate can have is dropped and named, never trusted", arguments: hostileAttributes)
    func hostileAttribute(attribute: String, resolution: HLSPlaylist.Resolution?, frameRate: Double?, average: Int?, invalid: [String]) throws {
        let playlist = try HLSPlaylist.parse("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000,\(attribute)\nv.m3u8\n")
        let variant = try #require(playlist.variants.first)
        #expect(variant.resolution == resolution)
        #expect(variant.frameRate == frameRate)
        #expect(variant.averageBandwidth == average)
        #expect(variant.invalidAttributes == invalid)
        #expect(variant.bandwidth == 1000)
    }

    @Test("the AUDIO group is kept: the variant's audio comes from a rendition")
    func audioGroup() throws {
        let playlist = try HLSPlaylist.parse("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000,AUDIO=\"aac\",CODECS=\"avc1.64001f,mp4a.40.2\"\nv.m3u8\n")
        #expect(playlist.variants.first?.audioGroup == "aac")
    }

    @Test("a local playlist path is read up to 16 MiB: /dev/zero is refused, not read into memory")
    func endlessLocalPlaylistIsRefused() {
        #expect(throws: HLSPlaylistError.self) { try HLSPlaylist.load(path: "/dev/zero") }
        do {
            _ = try HLSPlaylist.load(path: "/dev/zero")
        } catch {
            #expect(error.reason.contains("larger than 16 MiB"), "\(error)")
        }
    }

    @Test("#EXT-X-DISCONTINUITY-SEQUENCE is read; sequence numbers or byte ranges past the largest integer are refused, not trapped on")
    func discontinuitySequenceAndOverflow() throws {
        let playlist = try HLSPlaylist.parse("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-DISCONTINUITY-SEQUENCE:7\n#EXTINF:2,\na.ts\n")
        #expect(playlist.discontinuitySequence == 7)
        #expect(try HLSPlaylist.parse("#EXTM3U\n#EXTINF:2,\na.ts\n").discontinuitySequence == 0)
        let pastSequence = "#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:\(Int.max)\n#EXTINF:2,\na.ts\n#EXTINF:2,\nb.ts\n"
        #expect(throws: HLSPlaylistError.self) { try HLSPlaylist.parse(pastSequence) }
        let pastRange = "#EXTM3U\n#EXT-X-BYTERANGE:\(Int64.max)@\(Int64.max)\n#EXTINF:2,\na.ts\n"
        #expect(throws: HLSPlaylistError.self) { try HLSPlaylist.parse(pastRange) }
        #expect(throws: HLSPlaylistError.self) { try HLSPlaylist.parse("#EXTM3U\n#EXT-X-DISCONTINUITY-SEQUENCE:x\n") }
    }
}
