import MediaIO
import Testing

/// `URLReference`: the one resolution of a playlist's URI, a manifest's URL and a redirect's Location.
@Suite("URLReference: a reference resolved against where it was read")
struct URLReferenceTests {
    @Test("each reference form against a URL and a local path, as RFC 3986 resolves it (dot segments kept)", arguments: [
        ("seg1.ts", "/media/hls/low/index.m3u8", "/media/hls/low/seg1.ts"),
        ("low/index.m3u8", "http://h/a/master.m3u8?x=1", "http://h/a/low/index.m3u8"),
        ("low/index.m3u8", "http://h/a/master.m3u8#t=3", "http://h/a/low/index.m3u8"),
        ("seg.ts", "http://h/a/index.m3u8?next=/b/c", "http://h/a/seg.ts"),
        ("/abs/seg.ts", "/media/index.m3u8", "/abs/seg.ts"),
        ("/abs/seg.ts", "https://h:8443/a/b/index.m3u8?t=1", "https://h:8443/abs/seg.ts"),
        ("//cdn.example/x/seg.ts", "https://h/a/index.m3u8", "https://cdn.example/x/seg.ts"),
        ("//cdn.example/x/seg.ts", "/media/index.m3u8", "//cdn.example/x/seg.ts"),
        ("http://other/seg.ts", "https://h/a/index.m3u8", "http://other/seg.ts"),
        ("seg.ts", "index.m3u8", "seg.ts"),
        ("seg.ts", "http://h", "http://h/seg.ts"),
        ("seg.ts", "http://h?x=/y", "http://h/seg.ts"),
        ("../up/seg.ts", "http://h/a/b/index.m3u8", "http://h/a/b/../up/seg.ts"),
    ])
    func forms(reference: String, base: String, expected: String) {
        #expect(URLReference.resolve(reference, against: base) == expected)
    }

    @Test("HLS URIs and DASH URLs resolve by the same rule; an absent DASH reference keeps the base")
    func sameRuleEverywhere() {
        for (reference, base) in [("/a/seg.m4s", "http://h/dash/manifest.mpd"), ("v/init.mp4", "http://h/dash/manifest.mpd?k=1"), ("//o/x", "https://h/m.mpd")] {
            #expect(DASHManifest.join(reference, onto: base) == HLSPlaylist.resolve(reference, against: base))
            #expect(HLSPlaylist.resolve(reference, against: base) == URLReference.resolve(reference, against: base))
        }
        #expect(DASHManifest.join(nil, onto: "http://h/a/") == "http://h/a/")
        #expect(DASHManifest.join("", onto: "http://h/a/") == "http://h/a/")
    }
}
