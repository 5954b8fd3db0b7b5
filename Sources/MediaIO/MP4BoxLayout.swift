import Foundation

/// The top-level boxes of an MP4/MOV file, read from their 8- or 16-byte headers only (a few small reads,
/// never the payloads): enough to tell where the index (`moov`) sits relative to the media data (`mdat`).
public struct MP4BoxLayout: Sendable, Hashable {
    /// One top-level box.
    public struct Box: Sendable, Hashable {
        /// Four-character type (`ftyp`, `moov`, `mdat`, `free`, `moof`...).
        public var type: String
        /// Offset of the box's first header byte in the file.
        public var offset: Int64
        /// Size of the whole box, header included (a box of size 0 runs to the end of the file).
        public var size: Int64

        /// Creates a box.
        public init(type: String, offset: Int64, size: Int64) {
            self.type = type
            self.offset = offset
            self.size = size
        }

        /// The offset just past the box.
        public var end: Int64 { offset + size }
    }

    /// The boxes in file order, up to the end of the file or the first header that makes no sense (a
    /// truncated or damaged file stops the list there).
    public var boxes: [Box]

    /// Creates a layout from boxes in file order.
    public init(boxes: [Box]) { self.boxes = boxes }

    /// The first `moov` box (the index), if any.
    public var index: Box? { boxes.first { $0.type == "moov" } }

    /// The first `mdat` box (the media data), if any.
    public var firstMediaData: Box? { boxes.first { $0.type == "mdat" } }

    /// `true` when the index comes before the media data (a player can start after the first bytes),
    /// `false` when it comes after it, `nil` when there is no index among the boxes read. A file with an
    /// index and no `mdat` seen (an empty presentation, or one cut before its media) counts as fast start.
    public var isFastStart: Bool? {
        guard let index else { return nil }
        guard let media = firstMediaData else { return true }
        return index.offset < media.offset
    }

    /// Reads the top-level box headers of the file at `path`.
    /// - Throws: when the file cannot be opened.
    public static func scan(path: String) throws -> MP4BoxLayout {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let fileSize = Int64(try handle.seekToEnd())
        return parse(fileSize: fileSize) { offset, count in
            guard (try? handle.seek(toOffset: UInt64(offset))) != nil else { return [] }
            return Array((try? handle.read(upToCount: count)) ?? Data())
        }
    }

    /// Reads the top-level box headers of a whole file held in memory.
    public static func scan(bytes: [UInt8]) -> MP4BoxLayout {
        parse(fileSize: Int64(bytes.count)) { offset, count in
            guard offset >= 0, offset < Int64(bytes.count), count > 0 else { return [] }
            let start = Int(offset)
            return Array(bytes[start..<(start + min(count, bytes.count - start))])
        }
    }

    /// Walks box headers through `read(offset, count)`, which returns up to `count` bytes at `offset`,
    /// in a file of `fileSize` bytes. At most `maxBoxes` boxes are listed.
    public static func parse(
        fileSize: Int64, maxBoxes: Int = 4096, read: (Int64, Int) -> [UInt8]
    ) -> MP4BoxLayout {
        var boxes: [Box] = []
        var offset: Int64 = 0
        while offset + 8 <= fileSize, boxes.count < maxBoxes {
            let header = read(offset, 16)
            guard header.count >= 8 else { break }
            let size32 = header[0..<4].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let typeBytes = header[4..<8]
            // Box types are printable ASCII (Apple's use © = 0xA9 only inside moov): anything else is not MP4.
            guard typeBytes.allSatisfy({ (0x20...0x7E).contains($0) }) else { break }
            let type = String(decoding: typeBytes, as: UTF8.self)
            var size: Int64
            switch size32 {
            case 0:
                size = fileSize - offset
            case 1:
                // A 64-bit "largesize" follows the type.
                guard header.count >= 16 else { return MP4BoxLayout(boxes: boxes) }
                let large = header[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                guard large >= 16, large <= UInt64(Int64.max) else { return MP4BoxLayout(boxes: boxes) }
                size = Int64(large)
            default:
                guard size32 >= 8 else { return MP4BoxLayout(boxes: boxes) }
                size = Int64(size32)
            }
            boxes.append(Box(type: type, offset: offset, size: size))
            if offset > Int64.max - size { break }
            offset += size
        }
        return MP4BoxLayout(boxes: boxes)
    }
}
