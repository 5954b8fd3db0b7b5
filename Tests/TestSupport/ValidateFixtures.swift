public import Foundation

/// The streams `validate`'s tests judge, made by ffmpeg at test time: a clean two-variant HLS VOD stream in
/// MPEG-TS and one in fMP4 (each variant H.264 Main 3.0 and AAC-LC, 8 s in 2 s segments with a keyframe
/// every 2 s, and a multivariant playlist written with the figures measured from the segments), encoded once
/// into `TestCache.folder`; and every fixture of the rule catalogue, a one-line edit of a copy of the clean
/// TS stream (or, for the keyframe rule, an encode cut between keyframes).
public enum ValidateFixtures {
    /// The container of a clean stream.
    public enum Kind: String, Sendable, CaseIterable {
        /// MPEG-TS segments.
        case ts
        /// fMP4 segments with an `#EXT-X-MAP`.
        case fmp4
    }

    /// Every fixture name the catalogue names (`ValidationRule.fixture`), each making its rule fire.
    public static let names = hlsNames + dashNames

    /// The HLS fixtures' names.
    public static let hlsNames = [
        "targetDurationTooShort", "versionMissing", "averageBandwidthWrong", "bandwidthWrong", "paddedSegment",
        "segmentWithoutKeyframe", "extinfShortened", "playlistTypeMissing", "attributesMissing", "codecsWrong",
        "resolutionWrong", "singleVariant", "segmentMissing", "byteOrderMark", "audioGroupUndeclared", "mapMissing",
        "independentButNotKeyframe",
    ]

    /// The cached encodes' folder (`v1`, `v2` per kind, and `nokey`), made under a lock the first time.
    public static func encodes() throws -> URL {
        let folder = TestCache.folder.appendingPathComponent("validate-1")
        return try TestCache.exclusively("validate-1") {
            let done = folder.appendingPathComponent("done")
            if FileManager.default.fileExists(atPath: done.path) { return folder }
            try? FileManager.default.removeItem(at: folder)
            for kind in Kind.allCases {
                for (name, size, rate) in [("v1", "320x240", "250k"), ("v2", "640x360", "600k")] {
                    let directory = folder.appendingPathComponent("\(kind.rawValue)/\(name)")
                    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                    var arguments = [
                        "-v", "error", "-f", "lavfi", "-i", "testsrc2=s=\(size):r=25:d=8", "-f", "lavfi", "-i", "sine=f=440:d=8",
                        "-c:v", "libx264", "-profile:v", "main", "-level:v", "3.0", "-g", "50", "-keyint_min", "50",
                        "-sc_threshold", "0", "-b:v", rate, "-c:a", "aac", "-b:a", "64k", "-f", "hls", "-hls_time", "2",
                        "-hls_playlist_type", "vod",
                    ]
                    if kind == .fmp4 { arguments += ["-hls_segment_type", "fmp4"] }
                    arguments += ["-hls_segment_filename", directory.path + "/seg%d.\(kind == .ts ? "ts" : "m4s")", directory.path + "/index.m3u8"]
                    _ = try Samples.run("ffmpeg", arguments)
                }
                try master(kind, in: folder).write(
                    to: folder.appendingPathComponent("\(kind.rawValue)/master.m3u8"), atomically: true, encoding: .utf8)
            }
            let nokey = folder.appendingPathComponent("nokey")
            try FileManager.default.createDirectory(at: nokey, withIntermediateDirectories: true)
            // A keyframe every 4 s cut every 2 s: every other segment starts between keyframes.
            _ = try Samples.run("ffmpeg", [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=8", "-c:v", "libx264", "-g", "100",
                "-keyint_min", "100", "-sc_threshold", "0", "-f", "hls", "-hls_time", "2", "-hls_flags", "split_by_time",
                "-hls_playlist_type", "vod", "-hls_segment_filename", nokey.path + "/seg%d.ts", nokey.path + "/index.m3u8",
            ])
            try Data().write(to: done)
            return folder
        }
    }

    /// The multivariant playlist of `kind`, with each variant's BANDWIDTH the largest segment's bit rate
    /// and AVERAGE-BANDWIDTH all its bytes over all its durations (every segment is 2 s, the target
    /// duration, so the RFC's peak is the largest single segment's).
    static func master(_ kind: Kind, in folder: URL) throws -> String {
        var text = "#EXTM3U\n#EXT-X-VERSION:\(kind == .ts ? 3 : 7)\n#EXT-X-INDEPENDENT-SEGMENTS\n"
        for (name, size) in [("v1", "320x240"), ("v2", "640x360")] {
            let directory = folder.appendingPathComponent("\(kind.rawValue)/\(name)")
            let playlist = try String(contentsOf: directory.appendingPathComponent("index.m3u8"), encoding: .utf8)
            var peak = 0.0
            var bytes = 0.0
            var seconds = 0.0
            var duration = 0.0
            for line in playlist.split(separator: "\n") {
                if line.hasPrefix("#EXTINF:") {
                    duration = Double(line.dropFirst(8).prefix { $0 != "," }) ?? 0
                } else if !line.hasPrefix("#") {
                    let attributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(String(line)).path)
                    let size = Double((attributes[.size] as? NSNumber)?.int64Value ?? 0)
                    peak = max(peak, size * 8 / duration)
                    bytes += size
                    seconds += duration
                }
            }
            text += "#EXT-X-STREAM-INF:BANDWIDTH=\(Int(peak.rounded(.up))),AVERAGE-BANDWIDTH=\(Int((bytes * 8 / seconds).rounded(.up))),"
            text += "RESOLUTION=\(size),CODECS=\"avc1.4d401e,mp4a.40.2\"\n\(name)/index.m3u8\n"
        }
        return text
    }

    /// A fresh copy of the clean stream of `kind` in a temporary folder (the caller removes it): its folder.
    public static func clean(_ kind: Kind) throws -> URL {
        let copy = try CheckServers.temporaryDirectory("bufprobe-validate")
        let source = try encodes().appendingPathComponent(kind.rawValue)
        for item in try FileManager.default.contentsOfDirectory(atPath: source.path) {
            try FileManager.default.copyItem(at: source.appendingPathComponent(item), to: copy.appendingPathComponent(item))
        }
        return copy
    }

    /// The fixture `name` in a fresh temporary folder (the caller removes the folder): the playlist to
    /// validate (the multivariant `master.m3u8`, or a media playlist), or a DASH fixture's MPD.
    public static func make(_ name: String) throws -> URL {
        if dashNames.contains(name) { return try makeDASH(name) }
        if name == "segmentWithoutKeyframe" || name == "independentButNotKeyframe" {
            let copy = try CheckServers.temporaryDirectory("bufprobe-validate")
            let source = try encodes().appendingPathComponent("nokey")
            for item in try FileManager.default.contentsOfDirectory(atPath: source.path) {
                try FileManager.default.copyItem(at: source.appendingPathComponent(item), to: copy.appendingPathComponent(item))
            }
            let playlist = copy.appendingPathComponent("index.m3u8")
            if name == "independentButNotKeyframe" {
                let text = try String(contentsOf: playlist, encoding: .utf8)
                try text.replacingOccurrences(of: "#EXT-X-TARGETDURATION:", with: "#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-TARGETDURATION:")
                    .write(to: playlist, atomically: true, encoding: .utf8)
            }
            return playlist
        }
        let folder = try clean(name == "mapMissing" ? .fmp4 : .ts)
        let master = folder.appendingPathComponent("master.m3u8")
        let media = folder.appendingPathComponent("v1/index.m3u8")
        func edit(_ file: URL, _ change: (String) -> String) throws {
            let text = try String(contentsOf: file, encoding: .utf8)
            try change(text).write(to: file, atomically: true, encoding: .utf8)
        }
        /// The first variant's `#EXT-X-STREAM-INF` line changed by `change`.
        func firstVariant(_ change: @escaping (String) -> String) throws {
            try edit(master) { text in
                var lines = text.components(separatedBy: "\n")
                if let index = lines.firstIndex(where: { $0.hasPrefix("#EXT-X-STREAM-INF:") }) { lines[index] = change(lines[index]) }
                return lines.joined(separator: "\n")
            }
        }
        /// `attribute`'s value in a `#EXT-X-STREAM-INF` line replaced by `value` (`nil`: removed).
        func setting(_ attribute: String, _ value: @escaping (String) -> String?) -> (String) -> String {
            { line in
                let body = line.dropFirst("#EXT-X-STREAM-INF:".count)
                var parts: [String] = []
                var current = ""
                var quoted = false
                for character in body {
                    if character == "\"" { quoted.toggle() }
                    if character == ",", !quoted {
                        parts.append(current)
                        current = ""
                    } else {
                        current.append(character)
                    }
                }
                parts.append(current)
                parts = parts.compactMap { part in
                    guard part.hasPrefix(attribute + "=") else { return part }
                    return value(String(part.dropFirst(attribute.count + 1))).map { "\(attribute)=\($0)" }
                }
                return "#EXT-X-STREAM-INF:" + parts.joined(separator: ",")
            }
        }
        switch name {
        case "targetDurationTooShort":
            try edit(media) { $0.replacingOccurrences(of: "#EXT-X-TARGETDURATION:2", with: "#EXT-X-TARGETDURATION:1") }
        case "versionMissing":
            try edit(media) { $0.replacingOccurrences(of: "#EXT-X-VERSION:3\n", with: "") }
        case "averageBandwidthWrong":
            try firstVariant(setting("AVERAGE-BANDWIDTH") { String((Int($0) ?? 0) / 2) })
        case "bandwidthWrong":
            try firstVariant(setting("BANDWIDTH") { String((Int($0) ?? 0) / 2) })
        case "paddedSegment":
            // MPEG-TS null packets (PID 0x1FFF), which every demuxer skips: four times the segment's size more.
            let segment = folder.appendingPathComponent("v1/seg1.ts")
            var data = try Data(contentsOf: segment)
            let null = Data([0x47, 0x1F, 0xFF, 0x10] + [UInt8](repeating: 0xFF, count: 184))
            let count = data.count * 4 / 188
            for _ in 0..<count { data.append(null) }
            try data.write(to: segment)
        case "extinfShortened":
            try edit(media) { text in
                guard let range = text.range(of: "#EXTINF:2.000000,") else { return text }
                return text.replacingCharacters(in: range, with: "#EXTINF:1.500000,")
            }
        case "playlistTypeMissing":
            try edit(media) { $0.replacingOccurrences(of: "#EXT-X-PLAYLIST-TYPE:VOD\n", with: "") }
        case "attributesMissing":
            try firstVariant { setting("RESOLUTION") { _ in nil }(setting("AVERAGE-BANDWIDTH") { _ in nil }($0)) }
        case "codecsWrong":
            try firstVariant(setting("CODECS") { _ in "\"hvc1.1.6.L93.B0,mp4a.40.2\"" })
        case "resolutionWrong":
            try firstVariant(setting("RESOLUTION") { _ in "1280x720" })
        case "singleVariant":
            try edit(master) { text in
                let lines = text.components(separatedBy: "\n")
                guard let second = lines.lastIndex(where: { $0.hasPrefix("#EXT-X-STREAM-INF:") }) else { return text }
                return (lines[..<second] + lines[(second + 2)...]).joined(separator: "\n")
            }
        case "byteOrderMark":
            try edit(media) { "\u{FEFF}" + $0 }
        case "audioGroupUndeclared":
            try firstVariant { $0 + ",AUDIO=\"aac\"" }
        case "mapMissing":
            try edit(media) { $0.replacingOccurrences(of: "#EXT-X-MAP:URI=\"init.mp4\"\n", with: "") }
        case "segmentMissing":
            try FileManager.default.removeItem(at: folder.appendingPathComponent("v1/seg2.ts"))
        default:
            throw CheckServers.ServerError("no validate fixture named \(name)")
        }
        return master
    }
}
