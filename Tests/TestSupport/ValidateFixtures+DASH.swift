public import Foundation

/// The DASH streams `validate`'s tests judge, made by ffmpeg's `dash` muxer at test time: a clean ladder (two
/// H.264 Main 3.0 representations, 384x216 and 640x360 at 25 frames/s with a keyframe every 2 s and the
/// encoder's VBV at `@bandwidth`, and one AAC-LC representation; 8 s in 2 s segments, a SegmentTimeline,
/// `minBufferTime` 4 s), encoded once into `TestCache.folder`; and every DASH fixture of the rule
/// catalogue, a one-line edit of a copy of the clean MPD (for the alignment rule, of a ladder whose second
/// representation has a keyframe every 3 s; for the SAP rule, pointing at segments cut between keyframes).
extension ValidateFixtures {
    /// Every DASH fixture name the catalogue names.
    public static let dashNames = [
        "mpdMinBufferTimeMissing", "representationBandwidthMissing", "dashBandwidthTooLow", "dashCodecsWrong", "dashResolutionWrong",
        "dashFrameRateWrong", "dashSegmentWithoutKeyframe", "dashTimelineShifted", "dashSegmentsMisaligned", "dashAudioShort",
        "dashLiveWithoutUTCTiming",
    ]

    /// The cached DASH encodes' folder (`clean`, `misaligned`, `nokey`), made under a lock the first time.
    public static func dashEncodes() throws -> URL {
        let folder = TestCache.folder.appendingPathComponent("validate-dash-2")
        return try TestCache.exclusively("validate-dash-2") {
            let done = folder.appendingPathComponent("done")
            if FileManager.default.fileExists(atPath: done.path) { return folder }
            try? FileManager.default.removeItem(at: folder)
            for (name, secondGOP) in [("clean", "50"), ("misaligned", "75")] {
                let directory = folder.appendingPathComponent(name)
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                _ = try Samples.run("ffmpeg", [
                    "-v", "error", "-f", "lavfi", "-i", "testsrc2=s=640x360:r=25:d=8", "-f", "lavfi", "-i", "sine=f=440:d=8",
                    "-map", "0:v", "-map", "0:v", "-map", "1:a", "-c:v", "libx264", "-profile:v", "main", "-level:v", "3.0",
                    "-sc_threshold", "0", "-g:v:0", "50", "-keyint_min:v:0", "50", "-g:v:1", secondGOP, "-keyint_min:v:1", secondGOP,
                    "-s:v:0", "384x216", "-b:v:0", "250k", "-maxrate:v:0", "250k", "-bufsize:v:0", "500k",
                    "-b:v:1", "600k", "-maxrate:v:1", "600k", "-bufsize:v:1", "1200k", "-c:a", "aac", "-b:a", "64k",
                    "-f", "dash", "-seg_duration", "2", "-adaptation_sets", "id=0,streams=v id=1,streams=a",
                    directory.appendingPathComponent("manifest.mpd").path,
                ])
            }
            // The first representation again, as fMP4 segments cut every 2 s with a keyframe every 4 s: every
            // other segment starts between keyframes (ffmpeg's dash muxer only cuts at keyframes).
            let nokey = folder.appendingPathComponent("nokey")
            try FileManager.default.createDirectory(at: nokey, withIntermediateDirectories: true)
            _ = try Samples.run("ffmpeg", [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=s=384x216:r=25:d=8", "-c:v", "libx264", "-profile:v", "main", "-level:v", "3.0",
                "-g", "100", "-keyint_min", "100", "-sc_threshold", "0", "-b:v", "250k", "-maxrate", "250k", "-bufsize", "500k",
                "-f", "hls", "-hls_time", "2", "-hls_flags", "split_by_time", "-hls_playlist_type", "vod", "-hls_segment_type", "fmp4",
                "-hls_fmp4_init_filename", "init.mp4", "-start_number", "1", "-hls_segment_filename", nokey.path + "/seg%d.m4s",
                nokey.path + "/index.m3u8",
            ])
            try Data().write(to: done)
            return folder
        }
    }

    /// A fresh copy of the clean DASH ladder in a temporary folder (the caller removes it): its folder, with
    /// `manifest.mpd`.
    public static func cleanDASH(_ encode: String = "clean") throws -> URL {
        let copy = try CheckServers.temporaryDirectory("bufprobe-validate-dash")
        let source = try dashEncodes().appendingPathComponent(encode)
        for item in try FileManager.default.contentsOfDirectory(atPath: source.path) {
            try FileManager.default.copyItem(at: source.appendingPathComponent(item), to: copy.appendingPathComponent(item))
        }
        return copy
    }

    /// The DASH fixture `name` in a fresh temporary folder (the caller removes the folder): its MPD.
    static func makeDASH(_ name: String) throws -> URL {
        let folder = try cleanDASH(name == "dashSegmentsMisaligned" ? "misaligned" : "clean")
        let mpd = folder.appendingPathComponent("manifest.mpd")
        func edit(_ change: (String) -> String) throws {
            let text = try String(contentsOf: mpd, encoding: .utf8)
            let changed = change(text)
            guard changed != text else { throw CheckServers.ServerError("the DASH fixture \(name) changed nothing in \(mpd.path)") }
            try changed.write(to: mpd, atomically: true, encoding: .utf8)
        }
        /// The first match of `pattern` (a regular expression) replaced by `template`.
        func first(_ pattern: String, _ template: String) -> (String) -> String {
            { text in
                guard let range = text.range(of: pattern, options: .regularExpression) else { return text }
                return text.replacingCharacters(in: range, with: text[range].replacingOccurrences(of: pattern, with: template, options: .regularExpression))
            }
        }
        switch name {
        case "mpdMinBufferTimeMissing":
            try edit(first(#"\s*minBufferTime="[^"]*""#, ""))
        case "representationBandwidthMissing":
            try edit(first(#" bandwidth="[0-9]+""#, ""))
        case "dashBandwidthTooLow":
            // The second representation's @bandwidth (600000) made a quarter.
            try edit(first(#"bandwidth="600000""#, #"bandwidth="150000""#))
        case "dashCodecsWrong":
            try edit(first(#"codecs="avc1\.[0-9a-fA-F]+""#, #"codecs="hvc1.1.6.L93.B0""#))
        case "dashResolutionWrong":
            try edit(first(#"width="384" height="216""#, #"width="1280" height="720""#))
        case "dashFrameRateWrong":
            try edit(first(#"frameRate="25/1""#, #"frameRate="50/1""#))
        case "dashTimelineShifted":
            // The first representation's timeline starts 1 s (12,800 in its timescale) late.
            try edit(first(#"<S t="0" d="25600""#, #"<S t="12800" d="25600""#))
        case "dashAudioShort":
            // The audio timeline keeps its first two entries: it ends about 2 s before the video.
            try edit { text in
                guard let audio = text.range(of: "audioSamplingRate"), let end = text.range(of: "</SegmentTimeline>", range: audio.upperBound..<text.endIndex)
                else { return text }
                var entries = 0
                let lines = text[audio.upperBound..<end.lowerBound].components(separatedBy: "\n").filter { line in
                    guard line.contains("<S ") else { return true }
                    entries += 1
                    return entries <= 2
                }
                return text.replacingCharacters(in: audio.upperBound..<end.lowerBound, with: lines.joined(separator: "\n"))
            }
        case "dashSegmentWithoutKeyframe":
            // The first representation's template points at the segments cut between keyframes.
            try FileManager.default.copyItem(at: try dashEncodes().appendingPathComponent("nokey"), to: folder.appendingPathComponent("nokey"))
            try edit(first(
                #"initialization="init-stream\$RepresentationID\$\.m4s" media="chunk-stream\$RepresentationID\$-\$Number%05d\$\.m4s""#,
                #"initialization="nokey/init.mp4" media="nokey/seg\$Number\$.m4s""#))
        case "dashSegmentsMisaligned":
            break
        case "dashLiveWithoutUTCTiming":
            try edit(first(#"type="static""#, #"type="dynamic""#))
        default:
            throw CheckServers.ServerError("no validate fixture named \(name)")
        }
        return mpd
    }
}
