import Foundation

/// The sliding window bufprobe keeps of a live HLS media playlist: its last `ResourceLimits.liveSegments`
/// segments, as a playlist FFmpeg and bufprobe's own health check read in place of the whole one.
///
/// Why: FFmpeg 5.1's HLS demuxer parses the whole media playlist at every reload and keeps every segment it
/// lists (about 200 bytes each), so a live playlist that grows without ever sliding (by 10,000 entries a
/// reload, say) buys memory with its size. A check plays from the live edge (FFmpeg starts three segments
/// from the end) and never seeks back, so the segments before the window are never requested; a player that
/// falls further behind than the window skips ahead to its start, as it does when a server slides its own
/// window past it.
///
/// The window is a suffix of the playlist, rewritten so that FFmpeg's numbers stay right:
/// `#EXT-X-MEDIA-SEQUENCE` is raised by the segments left out (saturating), `#EXT-X-DISCONTINUITY-SEQUENCE`
/// by the `#EXT-X-DISCONTINUITY` tags left out with them, the `#EXT-X-KEY` and `#EXT-X-MAP` in force at the
/// window's first segment are repeated before it, and that segment's `#EXT-X-BYTERANGE` gets the offset
/// FFmpeg would have computed from the segments before it. Playlist-wide tags keep their place at the top;
/// what follows the last segment stays at the end.
///
/// Only a live media playlist longer than the window is rewritten: a master playlist, a playlist with
/// `#EXT-X-ENDLIST` (read once, never reloaded) and a short one are left alone (`nil`). A pure function of
/// the bytes, no I/O.
public enum HLSPlaylistWindow {
    /// The window of `bytes` keeping its last `limit` segments, or `nil` when the playlist is left whole.
    public static func window(_ bytes: [UInt8], keeping limit: Int = ResourceLimits.liveSegments) -> [UInt8]? {
        bytes.withUnsafeBufferPointer { window($0, keeping: limit) }
    }

    // Reads the bytes through one buffer pointer: the body may be 16 MiB, and a debug build's Swift loop
    // over an array's bytes takes seconds.
    private static func window(_ bytes: UnsafeBufferPointer<UInt8>, keeping limit: Int) -> [UInt8]? {
        guard limit > 0, bytes.baseAddress != nil else { return nil }
        var segments = 0
        var whole = false
        forEachLine(bytes) { line in
            if bytes[line.lowerBound] != UInt8(ascii: "#") {
                segments += 1
            } else if starts(bytes, line, Tag.extinf) {
                return
            } else if starts(bytes, line, Tag.streamInf) || starts(bytes, line, Tag.endList) || starts(bytes, line, Tag.media) {
                whole = true
            }
        }
        guard !whole, segments > limit else { return nil }
        let dropped = segments - limit

        var header: [Range<Int>] = []
        var mediaSequence = 0
        var discontinuitySequence: Int?
        var droppedDiscontinuities = 0
        var key: Range<Int>?
        var map: Range<Int>?
        var block: [Range<Int>] = []
        var blockHasDiscontinuity = false
        var index = 0
        // FFmpeg's running byte offset: a `#EXT-X-BYTERANGE` without `@` starts where the previous one ended.
        var rangeOffset: Int64 = 0
        var rangeSize: Int64?
        var body: [UInt8] = []
        body.reserveCapacity(bytes.count / max(segments, 1) * limit + 4096)

        // One line at a time, without a table of the lines: the body may be up to
        // `ResourceLimits.playlistBytes`, and only the window is kept.
        forEachLine(bytes) { line in
            let text = bytes[line]
            if bytes[line.lowerBound] == UInt8(ascii: "#") {
                // Most lines are `#EXTINF` (and URIs): the one comparison they need.
                if starts(bytes, line, Tag.extinf) {
                    block.append(line)
                    return
                }
                if Tag.playlistWide.contains(where: { starts(bytes, line, $0) }) {
                    if text.starts(with: Tag.mediaSequence) {
                        mediaSequence = Int(decimal(text.dropFirst(Tag.mediaSequence.count))) ?? 0
                    } else if text.starts(with: Tag.discontinuitySequence) {
                        discontinuitySequence = Int(decimal(text.dropFirst(Tag.discontinuitySequence.count))) ?? 0
                    }
                    header.append(line)
                    return
                }
                if starts(bytes, line, Tag.discontinuity) { blockHasDiscontinuity = true }
                if starts(bytes, line, Tag.byteRange) {
                    let value = text.dropFirst(Tag.byteRange.count)
                    let parts = value.split(separator: UInt8(ascii: "@"), maxSplits: 1, omittingEmptySubsequences: false)
                    rangeSize = parts.first.flatMap { Int64(decimal($0)) }
                    if parts.count > 1, let offset = Int64(decimal(parts[1])) { rangeOffset = offset }
                }
                block.append(line)
                return
            }
            // A URI: the segment the pending lines describe.
            if index >= dropped {
                if index == dropped {
                    // The tags in force before this segment's own lines, which may replace them.
                    if let key { append(bytes[key], to: &body) }
                    if let map { append(bytes[map], to: &body) }
                }
                for tagLine in block {
                    let tag = bytes[tagLine]
                    if index == dropped, tag.starts(with: Tag.byteRange), !tag.contains(UInt8(ascii: "@")) {
                        append(tag, to: &body, suffix: Array("@\(rangeOffset)".utf8))
                    } else {
                        append(tag, to: &body)
                    }
                }
                append(text, to: &body)
            } else if blockHasDiscontinuity {
                droppedDiscontinuities += 1
            }
            for tagLine in block where !starts(bytes, tagLine, Tag.extinf) {
                if starts(bytes, tagLine, Tag.key) { key = tagLine } else if starts(bytes, tagLine, Tag.map) { map = tagLine }
            }
            if let size = rangeSize, size >= 0 {
                rangeOffset = rangeOffset.addingReportingOverflow(size).overflow ? 0 : rangeOffset + size
            } else {
                rangeOffset = 0
            }
            rangeSize = nil
            block.removeAll(keepingCapacity: true)
            blockHasDiscontinuity = false
            index += 1
        }

        var out: [UInt8] = []
        out.reserveCapacity(body.count + 4096)
        let (raised, overflow) = mediaSequence.addingReportingOverflow(dropped)
        let newSequence = overflow ? Int.max : raised
        var wroteSequence = false
        var wroteDiscontinuity = false
        for line in header {
            let text = bytes[line]
            if text.starts(with: Tag.mediaSequence) {
                if !wroteSequence { append(Tag.mediaSequence + Array("\(newSequence)".utf8), to: &out) }
                wroteSequence = true
            } else if text.starts(with: Tag.discontinuitySequence) {
                if !wroteDiscontinuity {
                    let (sum, over) = (discontinuitySequence ?? 0).addingReportingOverflow(droppedDiscontinuities)
                    append(Tag.discontinuitySequence + Array("\(over ? Int.max : sum)".utf8), to: &out)
                }
                wroteDiscontinuity = true
            } else {
                append(text, to: &out)
            }
        }
        if !wroteSequence { append(Tag.mediaSequence + Array("\(newSequence)".utf8), to: &out) }
        if !wroteDiscontinuity, droppedDiscontinuities > 0 {
            append(Tag.discontinuitySequence + Array("\(droppedDiscontinuities)".utf8), to: &out)
        }
        out += body
        // What follows the last segment (trailing tags) stays at the end.
        for line in block { append(bytes[line], to: &out) }
        return out
    }

    /// Calls `body` with the range of each non-empty line of `bytes`, without its line end and surrounding
    /// blanks, in order (`memchr` finds the line ends).
    private static func forEachLine(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (Range<Int>) -> Void) {
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        var start = 0
        while start <= count {
            var end = count
            if start < count, let hit = memchr(base + start, 0x0A, count - start) {
                end = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
            }
            var lower = start
            var upper = end
            while lower < upper, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 || bytes[upper - 1] == 0x0D { upper -= 1 }
            while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
            if lower < upper { body(lower..<upper) }
            start = end + 1
        }
    }

    /// Whether the line at `line` of `bytes` starts with `tag`.
    private static func starts(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>, _ tag: [UInt8]) -> Bool {
        guard line.count >= tag.count, let base = bytes.baseAddress else { return false }
        return memcmp(base + line.lowerBound, tag, tag.count) == 0
    }

    /// The decimal text of a tag's value (its leading blanks left out).
    private static func decimal(_ bytes: some Collection<UInt8>) -> String {
        String(decoding: bytes.drop { $0 == 0x20 }, as: UTF8.self)
    }

    private static func append(_ line: some Collection<UInt8>, to out: inout [UInt8], suffix: [UInt8] = []) {
        out += line
        out += suffix
        out.append(0x0A)
    }

    private enum Tag {
        static let extinf = Array("#EXTINF:".utf8)
        static let streamInf = Array("#EXT-X-STREAM-INF".utf8)
        static let media = Array("#EXT-X-MEDIA:".utf8)
        static let endList = Array("#EXT-X-ENDLIST".utf8)
        static let mediaSequence = Array("#EXT-X-MEDIA-SEQUENCE:".utf8)
        static let discontinuitySequence = Array("#EXT-X-DISCONTINUITY-SEQUENCE:".utf8)
        static let discontinuity = Array("#EXT-X-DISCONTINUITY".utf8)
        static let byteRange = Array("#EXT-X-BYTERANGE:".utf8)
        static let key = Array("#EXT-X-KEY:".utf8)
        static let map = Array("#EXT-X-MAP:".utf8)
        /// Tags about the whole playlist (RFC 8216 §4.3.1, §4.3.3, §4.3.5), kept at the top of the window.
        static let playlistWide = [
            "#EXTM3U", "#EXT-X-VERSION:", "#EXT-X-TARGETDURATION:", "#EXT-X-MEDIA-SEQUENCE:",
            "#EXT-X-DISCONTINUITY-SEQUENCE:", "#EXT-X-PLAYLIST-TYPE:", "#EXT-X-INDEPENDENT-SEGMENTS", "#EXT-X-START:",
            "#EXT-X-ALLOW-CACHE:", "#EXT-X-I-FRAMES-ONLY", "#EXT-X-SERVER-CONTROL:", "#EXT-X-PART-INF:",
        ].map { Array($0.utf8) }
    }
}
