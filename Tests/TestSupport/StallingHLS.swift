public import Foundation

/// A 40 s VOD HLS stream ffmpeg makes at test time (2 s segments of about 35 kB) and nginx serves on
/// 127.0.0.1, with media playlists whose chosen segments nginx throttles (`limit_rate`, in one-second
/// bursts); every other segment arrives at once. A player stalls at a throttled segment it reaches with
/// less buffered than the segment takes to arrive, so the playlist chooses the stalls:
/// - `oneShortStall()`: segment 1 all at once in nginx's fourth burst, 3 s after it was asked for: one
///   stall of about 1 s, a rebuffer ratio near 2.6 % (measured: 1.05-1.08 s in 40 runs). FFmpeg's HLS
///   demuxer reads a segment in 32 KiB blocks (`avio_read` fills its buffer), so none of a throttled
///   segment's packets arrive before 32 KiB of it has: the rate puts both that block and the segment's last
///   byte in the fourth burst. (It used to be the average segment over 3 s, which put the first block in
///   the third burst, 2.0 s after the request, within 50 ms of the moment segment 0 ran out: a check
///   started a little late on a loaded machine did not stall at all.)
/// - `threeStalls()`: segments 1, 3 and 5 in about 7 s each (3.5x): three stalls, each shorter than the
///   one before as the fast segments between them fill the buffer (measured: 5.1 s, 3.0 s, 2.0 s), about
///   20 s to run.
public final class StallingHLS {
    /// Where ffmpeg wrote the segments and the playlists.
    public let directory: URL
    /// The server: `/stalls/` at full speed, `/rate/<B>/stalls/` throttled.
    public let nginx: NginxServer
    /// Bytes per second of `oneShortStall()`'s throttled segment.
    public let briefRate: Int
    /// Bytes per second of `threeStalls()`'s throttled segments.
    public let slowRate: Int
    /// Seconds of media in each segment.
    public static let segmentDuration = 2.0
    /// Segments in the stream.
    public static let segments = 20

    /// Makes the media (a few seconds of ffmpeg) and starts nginx.
    public init() throws {
        directory = try CheckServers.temporaryDirectory("bufprobe-stalls")
        _ = try Samples.run("ffmpeg", [
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25", "-f", "lavfi", "-i",
            "sine=frequency=440:sample_rate=22050", "-t", String(Double(Self.segments) * Self.segmentDuration),
            "-c:v", "libx264", "-preset", "ultrafast", "-threads", "1", "-g", "50", "-keyint_min", "50",
            "-sc_threshold", "0", "-b:v", "80k", "-c:a", "aac", "-b:a", "24k", "-f", "hls", "-hls_time", "2",
            "-hls_playlist_type", "vod", "-hls_segment_filename", directory.path + "/seg%03d.ts",
            directory.path + "/made.m3u8",
        ])
        let made = directory
        let sizes = try (0..<Self.segments).map { index in
            try FileManager.default.attributesOfItem(atPath: made.appendingPathComponent(Self.name(index)).path)[.size]
                as? Int ?? 0
        }
        let average = Double(sizes.reduce(0, +)) / Double(max(sizes.count, 1))
        // nginx sends `limit_rate` bytes at once, then as many again each second: X bytes are all there
        // after burst ceil(X / rate) - 1. Segment 1 and its first 32 KiB block (or the whole segment, when
        // smaller) both in burst 3: a rate in [size / 4, block / 3), the middle of it.
        let size = Double(sizes[1])
        let block = min(size, 32_768)
        guard size / 4 < block / 3 else {
            throw CheckServers.ServerError("segment 1 is \(sizes[1]) bytes: too large for one short stall at any rate")
        }
        briefRate = Int(((size / 4 + block / 3) / 2).rounded())
        slowRate = Int((average / (3.5 * Self.segmentDuration)).rounded())
        nginx = try NginxServer(rates: [briefRate, slowRate], extraRoots: ["stalls": directory])
    }

    /// A stream that stalls once, for about 1 s.
    public func oneShortStall() throws -> String { try url(throttled: [1], rate: briefRate) }

    /// A stream that stalls three times.
    public func threeStalls() throws -> String { try url(throttled: [1, 3, 5], rate: slowRate) }

    deinit { try? FileManager.default.removeItem(at: directory) }

    private static func name(_ index: Int) -> String { String(format: "seg%03d.ts", index) }

    /// The URL of a media playlist of the whole stream whose segments at `throttled` (0-based) arrive at
    /// `rate` bytes per second (one of `briefRate`, `slowRate`).
    public func url(throttled: Set<Int>, rate: Int) throws -> String {
        let made = try String(contentsOf: directory.appendingPathComponent("made.m3u8"), encoding: .utf8)
        var lines: [String] = []
        for line in made.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("seg"), line.hasSuffix(".ts"), let index = Int(line.dropFirst(3).dropLast(3)) {
                lines.append(throttled.contains(index) ? "/rate/\(rate)/stalls/\(line)" : "/stalls/\(line)")
            } else {
                lines.append(String(line))
            }
        }
        let name = "slow-\(rate)-" + throttled.sorted().map(String.init).joined(separator: "-") + ".m3u8"
        try lines.joined(separator: "\n").write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        return nginx.url("stalls/\(name)")
    }
}
