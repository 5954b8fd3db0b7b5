import Foundation
@testable import MediaIO
import Testing

/// The one place each container rule lives: which demuxers are the MP4 family, what a resource's first
/// bytes say it is, and what makes XML an MPD.
@Suite struct ContainerFormatTests {
    @Test("the MP4 family is FFmpeg's mov,mp4,... demuxer, by its name's tokens, never a substring", arguments: [
        ("mov,mp4,m4a,3gp,3g2,mj2", true), ("mp4", true), ("mov", true), ("mpegts", false), ("matroska,webm", false),
        ("hls", false), ("dash", false), ("mp4fake", false), ("m4v", false),
    ])
    func mp4Family(name: String, expected: Bool) {
        #expect(ContainerFormat(demuxer: name).isMP4Family == expected)
    }

    @Test("a resource's first bytes: #EXTM3U is HLS and <?xml or <MPD is DASH, past a byte order mark and white space", arguments: [
        ("#EXTM3U\n#EXT-X-VERSION:3\n", ContainerFormat.hls), ("\u{FEFF}#EXTM3U\n", .hls), ("\n  #EXTM3U", .hls),
        ("<?xml version=\"1.0\"?><MPD/>", .dash), ("<MPD xmlns=\"urn:mpeg:dash:schema:mpd:2011\"/>", .dash),
        ("\u{FEFF}\r\n<?xml?>", .dash),
    ])
    func playlistHead(text: String, expected: ContainerFormat) {
        #expect(ContainerFormat(head: Array(text.utf8)) == expected)
    }

    @Test("media, text and empty heads are no playlist", arguments: ["", "EXTM3U", "#EXT-X-VERSION:3\n#EXTM3U", "GIF89a", "\u{0}\u{0}\u{0} ftypisom"])
    func notAPlaylist(text: String) {
        #expect(ContainerFormat(head: Array(text.utf8)) == nil)
    }

    @Test("a local file is an HLS playlist by the same rule (HLSPlaylist.isPlaylist)")
    func playlistFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("head-\(UUID().uuidString).m3u8")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data("\u{FEFF}#EXTM3U\n#EXTINF:2,\na.ts\n".utf8).write(to: url)
        #expect(HLSPlaylist.isPlaylist(path: url.path))
        try Data("<?xml version=\"1.0\"?><MPD/>".utf8).write(to: url)
        #expect(!HLSPlaylist.isPlaylist(path: url.path))
    }

    @Test("an MPD is XML whose root is MPD, parsed in one place for the static, the live and the request-policy readers")
    func mpdRoot() throws {
        #expect(throws: DASHManifestError(reason: "is XML but not an MPD (its root is <html>)")) {
            try DASHManifest.mpd(Array("<html><body/></html>".utf8))
        }
        #expect(throws: DASHManifestError(reason: "is XML but not an MPD (its root is <html>)")) {
            try DASHLiveManifest.parse(Array("<html><body/></html>".utf8))
        }
        #expect(throws: (any Error).self) { try DASHManifest.mpd(Array("<MPD><Period>".utf8)) }
        let mpd = try DASHManifest.mpd(Array("<MPD type=\"static\"><Period/></MPD>".utf8))
        #expect(mpd.name == "MPD" && mpd.attributes["type"] == "static")
    }
}
