public import Foundation

/// A DASH ladder written byte for byte, no media: 300k/800k/2000k video representations (ids 0-2) and a
/// 64k AAC audio set at 48 kHz (id 3), 2 s segments each exactly its declared size, 1,000-byte
/// initialization segments, a `SegmentTemplate` and `minBufferTime` 4 s. What `simulate` reads of a DASH
/// manifest is its segments' sizes, so its players' rules can be checked to the byte on it.
public enum DASHTestLadder {
    /// Writes `segments` segments per representation and `manifest.mpd` into `directory` (created) and
    /// returns the manifest's path.
    public static func write(in directory: URL, segments: Int) throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let video = [(0, 300_000), (1, 800_000), (2, 2_000_000)]
        for (id, bandwidth) in video + [(3, 64_000)] {
            try Data(count: 1000).write(to: directory.appendingPathComponent("init-\(id).m4s"))
            let segment = Data(count: bandwidth * 2 / 8)
            for number in 1...segments {
                try segment.write(to: directory.appendingPathComponent(String(format: "chunk-%d-%05d.m4s", id, number)))
            }
        }
        let template =
            #"<SegmentTemplate timescale="1000" duration="2000" initialization="init-$RepresentationID$.m4s" media="chunk-$RepresentationID$-$Number%05d$.m4s" startNumber="1"/>"#
        let representations = video.map { id, bandwidth in
            #"<Representation id="\#(id)" mimeType="video/mp4" codecs="avc1.42c01e" bandwidth="\#(bandwidth)">\#(template)</Representation>"#
        }.joined()
        let mpd = """
            <?xml version="1.0" encoding="utf-8"?>
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT\(segments * 2).0S" minBufferTime="PT4.0S">
            <Period id="0" start="PT0.0S">
            <AdaptationSet id="0" contentType="video">\(representations)</AdaptationSet>
            <AdaptationSet id="1" contentType="audio"><Representation id="3" mimeType="audio/mp4" codecs="mp4a.40.2" bandwidth="64000" audioSamplingRate="48000">\(template)</Representation></AdaptationSet>
            </Period></MPD>
            """
        let path = directory.appendingPathComponent("manifest.mpd").path
        try mpd.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
