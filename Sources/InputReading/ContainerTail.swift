import Foundation

/// Checks a local file's last bytes against what its container declares, where libavformat ends a cut
/// file like a complete one: the last Ogg page's declared length, the last MPEG audio frame's length (from
/// its header), and an MPEG-TS file's transport-packet size (188 bytes, or 192 for M2TS with its 4-byte
/// timestamp prefix). Reads at most 64 KiB.
package enum ContainerTail {
    /// A sentence completing "looks truncated: ..." when the tail of the file at `path` (`nil` for a URL:
    /// only its size is known), read by the demuxer `formatName`, is cut short; `nil` when it is whole or
    /// cannot be told.
    package static func problem(path: String?, formatName: String, size: Int64) -> String? {
        switch formatName {
        case "ogg": return oggProblem(path: path, size: size)
        case "mpegts": return transportProblem(path: path, size: size)
        case "mp3": return mpegAudioProblem(path: path, size: size)
        default: return nil
        }
    }

    /// The one sentence every command gives for a cut tail: "`source` looks truncated: ...", for the input
    /// `source` (a local path is read; of a URL only `size` is known) read by the demuxer `formatName`;
    /// `nil` when the tail is whole, cannot be told, or the size is unknown.
    package static func sentence(source: String, formatName: String, size: Int64?) -> String? {
        guard let size else { return nil }
        return problem(path: InputCheck.isURL(source) ? nil : source, formatName: formatName, size: size)
            .map { "\(source) looks truncated: \($0)" }
    }

    private static func read(_ path: String?, at offset: Int64, count: Int) -> [UInt8]? {
        guard let path, offset >= 0, let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard (try? handle.seek(toOffset: UInt64(offset))) != nil, let data = try? handle.read(upToCount: count) else {
            return nil
        }
        return Array(data)
    }

    /// The last page (`OggS`, 27-byte header, a segment table of `segments` lengths) must end at the
    /// file's end.
    private static func oggProblem(path: String?, size: Int64) -> String? {
        let window = Int64(min(size, 65_536 + 27 + 255))
        guard let tail = read(path, at: size - window, count: Int(window)) else { return nil }
        let capture = Array("OggS".utf8)
        var start = tail.count - 4
        while start >= 0, !tail[start...].starts(with: capture) { start -= 1 }
        guard start >= 0 else { return nil }
        guard start + 27 <= tail.count else {
            return "its last Ogg page header is cut short (\(tail.count - start) of 27 bytes)."
        }
        let segments = Int(tail[start + 26])
        guard start + 27 + segments <= tail.count else {
            return "its last Ogg page's segment table is cut short."
        }
        let body = tail[(start + 27)..<(start + 27 + segments)].reduce(0) { $0 + Int($1) }
        let declared = 27 + segments + body
        let present = tail.count - start
        guard present < declared else { return nil }
        return "its last Ogg page declares \(declared) bytes but only \(present) are in the file."
    }

    /// The chain of MPEG audio frames in the last 16 KiB (before an ID3v1 tag) must end at the file's end:
    /// the earliest offset from which at least three valid headers follow each other by their declared
    /// lengths decides.
    private static func mpegAudioProblem(path: String?, size: Int64) -> String? {
        let window = Int64(min(size, 16_384))
        guard var tail = read(path, at: size - window, count: Int(window)) else { return nil }
        if tail.count >= 128, tail[(tail.count - 128)...].starts(with: Array("TAG".utf8)) { tail.removeLast(128) }
        for start in tail.indices {
            var offset = start
            var frames = 0
            var lastLength = 0
            while offset + 4 <= tail.count, let length = mpegAudioFrameLength(tail, at: offset) {
                frames += 1
                lastLength = length
                offset += length
            }
            guard frames >= 3 else { continue }
            if offset > tail.count {
                return "its last MPEG audio frame declares \(lastLength) bytes but only \(tail.count - (offset - lastLength)) are in the file."
            }
            if offset < tail.count, tail.count - offset < 4, tail[offset] == 0xFF {
                return "it ends inside an MPEG audio frame header."
            }
            return nil
        }
        return nil
    }

    /// The length of the MPEG audio frame whose 4-byte header is at `offset`, or `nil` when none is there.
    private static func mpegAudioFrameLength(_ bytes: [UInt8], at offset: Int) -> Int? {
        let b1 = bytes[offset + 1], b2 = bytes[offset + 2]
        guard bytes[offset] == 0xFF, b1 & 0xE0 == 0xE0 else { return nil }
        let version = (b1 >> 3) & 3  // 0: MPEG 2.5, 2: MPEG 2, 3: MPEG 1
        let layer = (b1 >> 1) & 3  // 1: III, 2: II, 3: I
        let bitrateIndex = Int(b2 >> 4), rateIndex = Int((b2 >> 2) & 3), padding = Int((b2 >> 1) & 1)
        guard version != 1, layer != 0, bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3 else { return nil }
        let mpeg1 = version == 3
        let rates = [44_100, 48_000, 32_000]
        let sampleRate = rates[rateIndex] >> (mpeg1 ? 0 : (version == 2 ? 1 : 2))
        let kbps: [Int]
        switch (mpeg1, layer) {
        case (true, 3): kbps = [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448]
        case (true, 2): kbps = [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384]
        case (true, _): kbps = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
        case (false, 3): kbps = [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256]
        default: kbps = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
        }
        let bitRate = kbps[bitrateIndex] * 1000
        if layer == 3 { return (12 * bitRate / sampleRate + padding) * 4 }
        let coefficient = layer == 1 && !mpeg1 ? 72 : 144
        return coefficient * bitRate / sampleRate + padding
    }

    /// A transport stream is a whole number of packets of the size its first packets show.
    private static func transportProblem(path: String?, size: Int64) -> String? {
        let head = read(path, at: 0, count: 3 * 192 + 4) ?? []
        func synced(_ offset: Int, _ step: Int) -> Bool {
            (0..<3).allSatisfy { offset + $0 * step < head.count && head[offset + $0 * step] == 0x47 }
        }
        let packet: Int64
        if synced(0, 188) {
            packet = 188
        } else if synced(4, 192) {
            packet = 192
        } else {
            return size % 188 == 0 || size % 192 == 0 ? nil : "its size (\(size) bytes) is not a whole number of 188-byte transport packets."
        }
        guard size % packet != 0 else { return nil }
        return "its size (\(size) bytes) is not a whole number of \(packet)-byte transport packets."
    }
}
