import Foundation
import MediaIO
import Testing

/// `text` as a manifest's bytes, parsed.
private func parse(_ text: String) throws -> DASHManifest { try DASHManifest.parse(Array(text.utf8)) }

/// An MPD around `period` (the Period's content), static, `duration` long.
private func mpd(_ period: String, duration: String = "PT10.0S") -> String {
    """
    <?xml version="1.0" encoding="utf-8"?>
    <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="\(duration)">
    <Period id="0" start="PT0.0S">\(period)</Period></MPD>
    """
}

/// The segments of a listed representation.
private func listed(_ representation: DASHManifest.Representation?) -> [DASHManifest.Segment] {
    guard case .listed(let segments) = representation?.addressing else { return [] }
    return segments
}

@Suite("DASH manifests")
struct DASHManifestTests {
    /// What FFmpeg's dash muxer wrote for two video representations and one audio (trimmed).
    static let ffmpeg = mpd(
        """
        <AdaptationSet id="0" contentType="video" segmentAlignment="true">
          <Representation id="0" mimeType="video/mp4" codecs="avc1.64000c" bandwidth="200000" width="320" height="180">
            <SegmentTemplate timescale="12800" initialization="init-stream$RepresentationID$.m4s" media="chunk-stream$RepresentationID$-$Number%05d$.m4s" startNumber="1">
              <SegmentTimeline><S t="0" d="25600" r="4" /></SegmentTimeline>
            </SegmentTemplate>
          </Representation>
        </AdaptationSet>
        <AdaptationSet id="1" contentType="video">
          <Representation id="1" mimeType="video/mp4" codecs="avc1.640014" bandwidth="600000">
            <SegmentTemplate timescale="12800" initialization="init-stream$RepresentationID$.m4s" media="chunk-stream$RepresentationID$-$Number%05d$.m4s" startNumber="1">
              <SegmentTimeline><S t="0" d="25600" r="4" /></SegmentTimeline>
            </SegmentTemplate>
          </Representation>
        </AdaptationSet>
        <AdaptationSet id="2" contentType="audio">
          <Representation id="2" mimeType="audio/mp4" codecs="mp4a.40.2" bandwidth="128000">
            <SegmentTemplate timescale="48000" initialization="init-stream$RepresentationID$.m4s" media="chunk-stream$RepresentationID$-$Number%05d$.m4s" startNumber="1">
              <SegmentTimeline><S t="0" d="92160" /><S d="96256" r="3" /><S d="3072" /></SegmentTimeline>
            </SegmentTemplate>
          </Representation>
        </AdaptationSet>
        """)

    @Test("FFmpeg's SegmentTemplate with a SegmentTimeline: $Number%05d$ names, durations, initialization, kinds")
    func ffmpegTemplate() throws {
        let manifest = try parse(Self.ffmpeg)
        #expect(manifest.duration == 10)
        #expect(manifest.adaptationSets.map(\.kind) == [.video, .video, .audio])
        let low = manifest.adaptationSets.first?.representations.first
        #expect(low?.bandwidth == 200_000)
        #expect(low?.width == 320)
        #expect(low?.initialization?.url == "init-stream0.m4s")
        let segments = listed(low)
        #expect(segments.map(\.resource.url) == (1...5).map { "chunk-stream0-0000\($0).m4s" })
        #expect(segments.allSatisfy { $0.duration == 2 })
        let audio = listed(manifest.adaptationSets.last?.representations.first)
        #expect(audio.map(\.duration) == [1.92] + Array(repeating: 96256 / 48000.0, count: 4) + [0.064])
    }

    @Test("MPD@minBufferTime and a representation's (or its set's) audioSamplingRate are read; absent, nil")
    func minBufferTimeAndSamplingRate() throws {
        let text = Self.ffmpeg
            .replacingOccurrences(of: "type=\"static\"", with: "type=\"static\" minBufferTime=\"PT4.0S\"")
            .replacingOccurrences(of: "<AdaptationSet id=\"2\" contentType=\"audio\">", with: "<AdaptationSet id=\"2\" contentType=\"audio\" audioSamplingRate=\"48000\">")
        let manifest = try parse(text)
        #expect(manifest.minBufferTime == 4)
        #expect(manifest.adaptationSets.last?.representations.first?.audioSamplingRate == 48000)
        #expect(manifest.adaptationSets.first?.representations.first?.audioSamplingRate == nil)
        #expect(try parse(Self.ffmpeg).minBufferTime == nil)
    }

    @Test("$Time$, $Bandwidth$, $$, r=-1 up to the period's end, and BaseURLs resolved level by level")
    func timeTemplate() throws {
        let manifest = try parse(
            mpd(
                """
                <BaseURL>media/</BaseURL>
                <AdaptationSet mimeType="video/mp4">
                  <SegmentTemplate timescale="1000" media="$Bandwidth$/t$Time$-$$.m4s" initialization="$Bandwidth$/init.mp4">
                    <SegmentTimeline><S t="500" d="4000" r="-1" /></SegmentTimeline>
                  </SegmentTemplate>
                  <Representation id="a" bandwidth="300000"><BaseURL>a/</BaseURL></Representation>
                </AdaptationSet>
                """, duration: "PT12.5S"))
        let representation = manifest.adaptationSets.first?.representations.first
        #expect(representation?.initialization?.url == "media/a/300000/init.mp4")
        #expect(listed(representation).map(\.resource.url) == [
            "media/a/300000/t500-$.m4s", "media/a/300000/t4500-$.m4s", "media/a/300000/t8500-$.m4s",
        ])
    }

    @Test("SegmentTemplate@duration counts segments over the period, the last one cut at its end")
    func durationTemplate() throws {
        let manifest = try parse(
            mpd(
                """
                <AdaptationSet contentType="video"><Representation id="v" bandwidth="1000">
                  <SegmentTemplate timescale="1000000" duration="2000000" media="c-$Number$.m4s" startNumber="7" />
                </Representation></AdaptationSet>
                """, duration: "PT9S"))
        let segments = listed(manifest.adaptationSets.first?.representations.first)
        #expect(segments.map(\.resource.url) == ["c-7.m4s", "c-8.m4s", "c-9.m4s", "c-10.m4s", "c-11.m4s"])
        #expect(segments.map(\.duration) == [2, 2, 2, 2, 1])
    }

    @Test("SegmentList with byte ranges in the representation's file (FFmpeg's -single_file), and with URLs")
    func segmentList() throws {
        let manifest = try parse(
            mpd(
                """
                <AdaptationSet contentType="video">
                  <Representation id="0" bandwidth="200000"><BaseURL>m-stream0.mp4</BaseURL>
                    <SegmentList timescale="1000000" duration="2000000" startNumber="1">
                      <Initialization range="0-834" />
                      <SegmentURL mediaRange="835-41017" indexRange="835-886" />
                      <SegmentURL mediaRange="41018-98953" />
                    </SegmentList>
                  </Representation>
                  <Representation id="1" bandwidth="400000">
                    <SegmentList timescale="1000" duration="2000"><Initialization sourceURL="init.m4s" />
                      <SegmentURL media="a.m4s" /><SegmentURL media="b.m4s" />
                    </SegmentList>
                  </Representation>
                </AdaptationSet>
                """, duration: "PT4S"))
        let representations = manifest.adaptationSets.first?.representations ?? []
        #expect(representations.first?.initialization?.range?.length == 835)
        #expect(listed(representations.first).map { $0.resource.range?.length } == [40183, 57936])
        #expect(listed(representations.first).map(\.resource.url) == ["m-stream0.mp4", "m-stream0.mp4"])
        #expect(representations.last?.initialization?.url == "init.m4s")
        #expect(listed(representations.last).map(\.resource.url) == ["a.m4s", "b.m4s"])
    }

    @Test("a SegmentTemplate at the adaptation set is inherited, the representation's attributes winning")
    func inheritance() throws {
        let manifest = try parse(
            mpd(
                """
                <AdaptationSet contentType="video">
                  <SegmentTemplate timescale="10" duration="20" media="$RepresentationID$/$Number%03d$.m4s" />
                  <Representation id="lo" bandwidth="100" />
                  <Representation id="hi" bandwidth="200"><SegmentTemplate startNumber="0" /></Representation>
                </AdaptationSet>
                """, duration: "PT4S"))
        let representations = manifest.adaptationSets.first?.representations ?? []
        #expect(listed(representations.first).map(\.resource.url) == ["lo/001.m4s", "lo/002.m4s"])
        #expect(listed(representations.last).map(\.resource.url) == ["hi/000.m4s", "hi/001.m4s"])
    }

    @Test(
        "hostile manifests are refused with a sentence, never a trap",
        arguments: [
            (mpd("<AdaptationSet><Representation id='v' bandwidth='1'><SegmentTemplate media='$Number$' timescale='1'><SegmentTimeline><S d='1' r='9999999999999' /></SegmentTimeline></SegmentTemplate></Representation></AdaptationSet>"), "more than 500000 segments"),
            (mpd("<AdaptationSet><Representation id='v' bandwidth='1'><SegmentTemplate media='$Number$' timescale='1'><SegmentTimeline><S t='9223372036854775800' d='9' r='2' /></SegmentTimeline></SegmentTemplate></Representation></AdaptationSet>"), "past the largest time"),
            (mpd("<AdaptationSet><Representation id='v' bandwidth='1'><SegmentTemplate media='$Number$' timescale='1'><SegmentTimeline><S d='-4' /></SegmentTimeline></SegmentTemplate></Representation></AdaptationSet>"), "S@d that is not above 0"),
            (mpd("<AdaptationSet><Representation id='v' bandwidth='1'><SegmentTemplate media='$Number$' timescale='0' duration='1' /></Representation></AdaptationSet>"), "timescale that is not above 0"),
            (mpd("<AdaptationSet><Representation id='v' bandwidth='1'><SegmentTemplate media='$Number%099d$' duration='1' /></Representation></AdaptationSet>"), "%0Nd with N up to 20"),
            (mpd("<AdaptationSet><Representation id='v' bandwidth='1'><SegmentTemplate media='$Nope$' duration='1' /></Representation></AdaptationSet>"), "unknown template identifier"),
            (mpd("<AdaptationSet><Representation id='v' bandwidth='1'><SegmentTemplate media='$Number' duration='1' /></Representation></AdaptationSet>"), "unclosed $"),
            (mpd("<AdaptationSet><Representation id='v' bandwidth='99999999999999999999999'><SegmentTemplate media='x' duration='1' /></Representation></AdaptationSet>"), "no usable bandwidth"),
            (mpd("<AdaptationSet><Representation id='v' bandwidth='1'><SegmentTemplate media='$Number$' duration='1' /></Representation></AdaptationSet>", duration: "PT8760H"), "more than 500000 segments"),
            (mpd("<AdaptationSet><Representation id='v' bandwidth='1'><SegmentBase indexRange='9-3' /></Representation></AdaptationSet>"), "not a byte range"),
            (mpd("", duration: "P1Y"), "not an ISO 8601 duration"),
            (mpd("", duration: "PT-5S"), "not an ISO 8601 duration"),
            ("<MPD type='dynamic'><Period/></MPD>", "live (dynamic)"),
            ("<MPD><Period/><Period/></MPD>", "2 periods"),
            ("<html><body/></html>", "not an MPD"),
            (mpd("<AdaptationSet>" + String(repeating: "<Representation id='v' bandwidth='1'><SegmentTemplate media='$Number$' timescale='1'><SegmentTimeline><S d='1' r='399999' /></SegmentTimeline></SegmentTemplate></Representation>", count: 6) + "</AdaptationSet>"), "or more than 2000000 in all"),
            ("<MPD><Period>", "not well-formed XML"),
            (String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100), "nested deeper"),
        ])
    func hostile(text: String, reason: String) {
        #expect {
            try parse(text)
        } throws: { error in
            guard let error = error as? DASHManifestError else { return false }
            return error.description.contains(reason) && error.description.hasPrefix("the DASH manifest ")
        }
    }

    @Test("a manifest larger than the 16 MiB playlist cap is refused before it is parsed")
    func sizeCap() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("big-\(UUID().uuidString).mpd").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var text = Data(mpd("").utf8)
        text.append(Data(repeating: UInt8(ascii: " "), count: 17 << 20))
        try text.write(to: URL(fileURLWithPath: path))
        #expect(DASHManifest.isManifest(path: path))
        #expect(throws: DASHManifestError(reason: "is larger than 16 MiB, the most read as one playlist", location: path)) {
            try DASHManifest.load(path: path)
        }
    }

    @Test("segment sizes come from the files next to the manifest, or from the sidx of a SegmentBase file")
    func sizesFromDisk() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mpd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(count: 300).write(to: directory.appendingPathComponent("init-v.m4s"))
        try Data(count: 1000).write(to: directory.appendingPathComponent("v-1.m4s"))
        try Data(count: 2500).write(to: directory.appendingPathComponent("v-2.m4s"))
        let path = directory.appendingPathComponent("m.mpd").path
        try mpd(
            """
            <AdaptationSet contentType="video"><Representation id="v" bandwidth="1000">
              <SegmentTemplate duration="2" media="$RepresentationID$-$Number$.m4s" initialization="init-$RepresentationID$.m4s" />
            </Representation></AdaptationSet>
            """, duration: "PT4S").write(toFile: path, atomically: true, encoding: .utf8)
        let manifest = try DASHManifest.load(path: path)
        let representation = try #require(manifest.adaptationSets.first?.representations.first)
        let measured = try manifest.segments(of: representation, manifestPath: path)
        #expect(measured.initialization == 300)
        #expect(measured.segments.map(\.bytes) == [1000, 2500])
        #expect(measured.segments.map(\.duration) == [2, 2])
        try FileManager.default.removeItem(at: directory.appendingPathComponent("v-2.m4s"))
        #expect(throws: DASHManifestError.self) { try manifest.segments(of: representation, manifestPath: path) }

        // SegmentBase: a 40-byte box standing in for ftyp and moov, then a sidx of two segments, then their bytes.
        let sidx = MP4SegmentIndexTests.box(version: 1, timescale: 1000, firstOffset: 0, references: [(5000, 2000), (7000, 1500)])
        var file = Data([0, 0, 0, 40] + Array("free".utf8) + Array(repeating: 0, count: 32))
        file.append(contentsOf: sidx)
        file.append(Data([0, 0, 0x2E, 0xE8] + Array("mdat".utf8)))
        file.append(Data(count: 11_992))
        try file.write(to: directory.appendingPathComponent("single.mp4"))
        for indexRange in ["indexRange=\"40-\(40 + sidx.count - 1)\"", ""] {
            try mpd(
                """
                <AdaptationSet contentType="video"><Representation id="s" bandwidth="1000"><BaseURL>single.mp4</BaseURL>
                  <SegmentBase \(indexRange)><Initialization range="0-39" /></SegmentBase>
                </Representation></AdaptationSet>
                """).write(toFile: path, atomically: true, encoding: .utf8)
            let based = try DASHManifest.load(path: path)
            let single = try #require(based.adaptationSets.first?.representations.first)
            let indexed = try based.segments(of: single, manifestPath: path)
            #expect(indexed.initialization == 40 + Int64(sidx.count), "the index comes with the initialization")
            #expect(indexed.segments.map(\.bytes) == [5000, 7000])
            #expect(indexed.segments.map(\.duration) == [2, 1.5])
        }
    }

    @Test("a segment at a URL, or a BaseURL that is one, is refused: only local files are measured")
    func remoteRefused() throws {
        let manifest = try parse(
            mpd(
                """
                <BaseURL>https://cdn.example.net/vod/</BaseURL>
                <AdaptationSet contentType="video"><Representation id="v" bandwidth="1">
                  <SegmentTemplate duration="2" media="$Number$.m4s" /></Representation></AdaptationSet>
                """))
        let representation = try #require(manifest.adaptationSets.first?.representations.first)
        #expect(listed(representation).first?.resource.url == "https://cdn.example.net/vod/1.m4s")
        #expect {
            try manifest.segments(of: representation, manifestPath: "/tmp/m.mpd")
        } throws: { error in
            (error as? DASHManifestError)?.description.contains("https://cdn.example.net/vod/1.m4s, a URL") == true
        }
    }
}
