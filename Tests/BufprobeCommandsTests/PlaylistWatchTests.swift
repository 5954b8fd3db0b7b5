@testable import BufprobeCommands
@testable import CheckEngine
import MediaIO
import Testing

/// Which playlists a check watches, and how their health reads in the text summary.
@Suite("check: the playlists watched for live health")
struct PlaylistWatchTests {
    static func media(_ first: Int, over: Bool = false) -> [UInt8] {
        Array("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:\(first)\n#EXTINF:\(over ? "1.6" : "1.0"),\na\(first).ts\n".utf8)
    }

    @Test("a variant read only while opening is not watched; the one loaded after opening is, from its first load")
    func reloadedIsWatched() {
        var watch = PlaylistWatch()
        watch.load(url: "http://h/low.m3u8", bytes: Self.media(5, over: true), at: 0.1)
        watch.load(url: "http://h/high.m3u8", bytes: Self.media(5, over: true), at: 0.2)
        // Probing the streams may reload a variant that will not be played.
        watch.load(url: "http://h/high.m3u8", bytes: Self.media(6), at: 0.3)
        watch.openingFinished()
        watch.load(url: "http://h/low.m3u8", bytes: Self.media(4), at: 1.1)
        let report = watch.report()
        #expect(report.url == "http://h/low.m3u8")
        #expect(report.playlists == ["http://h/low.m3u8"])
        #expect(report.reloads == 2)
        #expect(report.events.map(\.kind) == ["segment_over_target_duration", "media_sequence_regression"])
        #expect(report.counts[.segmentOverTargetDuration] == 1 && report.counts[.mediaSequenceRegression] == 1)
    }

    @Test("a media playlist input is watched from its first load seen (a reload); masters and nothing seen give no URL")
    func inputAndMasters() {
        var watch = PlaylistWatch()
        watch.openingFinished()
        #expect(watch.report().url == nil)
        watch.load(url: "http://h/live.m3u8", bytes: Array("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nx.m3u8\n".utf8), at: 0.5)
        #expect(watch.report().url == nil)
        watch.load(url: "http://h/live.m3u8", bytes: Self.media(1), at: 1)
        #expect(watch.report().url == "http://h/live.m3u8")
        #expect(watch.report().reloads == 1)
        watch.load(url: "http://h/live.m3u8", bytes: Array("not a playlist".utf8), at: 2)
        #expect(watch.report().events.map(\.kind) == ["parse_error"])
    }

    @Test("the text summary has a playlist line with the counts by kind (the events are among the warning lines)")
    func text() {
        var health = CheckReport.PlaylistHealth()
        health.url = "http://h/live.m3u8"
        health.playlists = ["http://h/live.m3u8"]
        health.reloads = 9
        health.counts[.stale] = 1
        health.events = [.init(kind: "stale", at: 6.3, mediaSequence: 4, playlist: "http://h/live.m3u8", message: "It went stale.")]
        let text = CheckText.playlist(health)
        #expect(text == "  playlist:    http://h/live.m3u8, 9 loads seen, 1 stale\n")
        #expect(CheckText.playlist(CheckReport.PlaylistHealth()).contains("no reload seen, 0 loads seen, no problems"))
    }
}
