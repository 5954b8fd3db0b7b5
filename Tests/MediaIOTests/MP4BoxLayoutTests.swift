import Foundation
import MediaIO
import Testing
import TestSupport

/// A box header: 32-bit size and type, or size 1, type and a 64-bit size.
private func header(_ type: String, size: UInt64, large: Bool = false) -> [UInt8] {
    func bytes(_ value: UInt64, _ count: Int) -> [UInt8] { (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) } }
    return large ? bytes(1, 4) + Array(type.utf8) + bytes(size, 8) : bytes(size, 4) + Array(type.utf8)
}

/// Parses a file laid out as `(header bytes, total box size)` pairs, reading only what the parser asks for.
private func layout(_ boxes: [([UInt8], Int64)], trailing: Int64 = 0) -> MP4BoxLayout {
    var file: [Int64: [UInt8]] = [:]
    var offset: Int64 = 0
    for (bytes, size) in boxes {
        file[offset] = bytes
        offset += size
    }
    return MP4BoxLayout.parse(fileSize: offset + trailing) { at, count in Array((file[at] ?? []).prefix(count)) }
}

@Suite("MP4BoxLayout")
struct MP4BoxLayoutTests {
    @Test("the samples: index before the media is fast start, after it is not", arguments: [
        ("h264-aac.mp4", true), ("h264-aac-moov-at-end.mp4", false), ("fragmented.mp4", true), ("dense-start.mp4", true),
        ("truncated.mp4", true),
    ])
    func samples(name: String, fastStart: Bool) throws {
        let boxes = try MP4BoxLayout.scan(path: Samples.directory.appendingPathComponent(name).path)
        #expect(boxes.isFastStart == fastStart, "\(name): \(boxes.boxes.map(\.type))")
        #expect(boxes.index != nil)
    }

    @Test("the moov-at-end sample: boxes tile the file and the index is its last box")
    func moovAtEnd() throws {
        let path = Samples.directory.appendingPathComponent("h264-aac-moov-at-end.mp4").path
        let boxes = try MP4BoxLayout.scan(path: path)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber).int64Value
        #expect(boxes.boxes.map(\.type) == ["ftyp", "free", "mdat", "moov"])
        #expect(boxes.index?.end == size)
        for (box, next) in zip(boxes.boxes, boxes.boxes.dropFirst()) { #expect(box.end == next.offset) }
    }

    @Test("a 64-bit box size is read from the 16-byte header")
    func largeSize() {
        let big: Int64 = 5_000_000_000
        let result = layout([
            (header("ftyp", size: 24), 24), (header("mdat", size: UInt64(big), large: true), big),
            (header("moov", size: 1_000), 1_000),
        ])
        #expect(result.boxes.map(\.type) == ["ftyp", "mdat", "moov"])
        #expect(result.boxes[1].size == big)
        #expect(result.index?.offset == 24 + big)
        #expect(result.isFastStart == false)
    }

    @Test("a box of size 0 runs to the end of the file")
    func sizeZero() {
        let result = layout([(header("ftyp", size: 24), 24), (header("moov", size: 100), 100), (header("mdat", size: 0), 0)], trailing: 5_000)
        #expect(result.boxes.last?.size == 5_000)
        #expect(result.isFastStart == true)
    }

    @Test("bytes that are not box headers stop the walk, and without a moov there is no answer")
    func notMP4() {
        let result = MP4BoxLayout.parse(fileSize: 4096) { _, count in Array(repeating: 0xFF, count: count) }
        #expect(result.boxes.isEmpty)
        #expect(result.isFastStart == nil)
        let tiny = layout([(header("ftyp", size: 4), 4)])
        #expect(tiny.boxes.isEmpty)
    }
}
