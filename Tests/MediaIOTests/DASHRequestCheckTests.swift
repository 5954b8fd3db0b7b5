import Foundation
@testable import MediaIO
import Testing

/// What bufprobe checks of a DASH manifest under a request policy before FFmpeg opens it: every URL the
/// manifest can make FFmpeg's DASH demuxer fetch, absolute (`DASHRequestCheck.requestedURLs`).
@Suite("DASHRequestCheck: the URLs a DASH manifest leads to")
struct DASHRequestCheckTests {
    private static func urls(_ text: String, location: String = "http://origin.test/live/manifest.mpd") throws -> [String] {
        let mpd = try DASHManifest.mpd(Array(text.utf8))
        return DASHRequestCheck.requestedURLs(try DASHManifest.parse(mpd: mpd), mpd: mpd, location: location)
    }

    @Test("every level's BaseURL, a template's initialization and media, and Location are checked, resolved against the manifest's location")
    func templateAndBaseURLs() throws {
        let found = try Self.urls("""
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT4S">
              <Location>http://elsewhere.test/manifest.mpd</Location>
              <BaseURL>http://cdn.test/base/</BaseURL>
              <Period><BaseURL>period/</BaseURL>
                <AdaptationSet mimeType="video/mp4"><BaseURL>//set.test/v/</BaseURL>
                  <Representation id="v1" bandwidth="100000"><BaseURL>rep/</BaseURL>
                    <SegmentTemplate timescale="1" duration="2" startNumber="1" initialization="init-$RepresentationID$.mp4" media="seg-$Number$.m4s"/>
                  </Representation>
                </AdaptationSet>
              </Period>
            </MPD>
            """)
        #expect(found.contains("http://set.test/v/rep/init-v1.mp4"), "\(found)")
        #expect(found.contains("http://set.test/v/rep/seg-1.m4s"), "\(found)")
        #expect(found.contains("http://set.test/v/rep/seg-2.m4s"), "\(found)")
        for base in ["http://cdn.test/base/", "http://origin.test/live/period/", "http://set.test/v/", "http://origin.test/live/rep/", "http://elsewhere.test/manifest.mpd"] {
            #expect(found.contains(base), "\(base) in \(found)")
        }
        #expect(Set(found).count == found.count, "each URL once")
    }

    @Test("a SegmentList's Initialization and SegmentURLs and a single-file representation are checked; relative ones resolve against the manifest")
    func segmentListAndSingleFile() throws {
        let found = try Self.urls("""
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT4S">
              <Period>
                <AdaptationSet mimeType="video/mp4">
                  <Representation id="v" bandwidth="100000">
                    <SegmentList timescale="1" duration="2"><Initialization sourceURL="/abs/init.mp4"/>
                      <SegmentURL media="a.m4s"/><SegmentURL media="http://other.test/b.m4s"/></SegmentList>
                  </Representation>
                </AdaptationSet>
                <AdaptationSet mimeType="audio/mp4">
                  <Representation id="a" bandwidth="64000"><BaseURL>audio.mp4</BaseURL></Representation>
                </AdaptationSet>
              </Period>
            </MPD>
            """)
        #expect(found.contains("http://origin.test/abs/init.mp4"), "\(found)")
        #expect(found.contains("http://origin.test/live/a.m4s"), "\(found)")
        #expect(found.contains("http://other.test/b.m4s"), "\(found)")
        #expect(found.contains("http://origin.test/live/audio.mp4"), "\(found)")
    }
}
