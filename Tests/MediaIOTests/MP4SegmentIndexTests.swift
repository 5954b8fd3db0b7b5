import MediaIO
import Testing

@Suite("MP4 segment index (sidx)")
struct MP4SegmentIndexTests {
    /// A `sidx` box with `references` as (bytes, duration in the timescale); `hierarchical` marks the first
    /// reference as pointing to another sidx.
    static func box(
        version: UInt8, timescale: UInt32, firstOffset: UInt64, references: [(UInt32, UInt32)], hierarchical: Bool = false
    ) -> [UInt8] {
        func be<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }
        var body: [UInt8] = [version, 0, 0, 0] + be(UInt32(1)) + be(timescale)
        body += version == 0 ? be(UInt32(0)) + be(UInt32(firstOffset)) : be(UInt64(0)) + be(firstOffset)
        body += be(UInt16(0)) + be(UInt16(references.count))
        for (index, reference) in references.enumerated() {
            let type: UInt32 = hierarchical && index == 0 ? 0x8000_0000 : 0
            body += be(type | reference.0) + be(reference.1) + be(UInt32(0x9000_0000))
        }
        return be(UInt32(8 + body.count)) + Array("sidx".utf8) + body
    }

    @Test("versions 0 and 1: sizes, durations in seconds, and where the first segment starts", arguments: [UInt8(0), 1])
    func parse(version: UInt8) throws {
        let bytes = Self.box(version: version, timescale: 90_000, firstOffset: 10, references: [(1000, 180_000), (2000, 90_000)])
        let index = try MP4SegmentIndex.parse(bytes, at: 500)
        #expect(index.references.map(\.size) == [1000, 2000])
        #expect(index.references.map(\.duration) == [2, 1])
        #expect(index.firstOffset == 500 + Int64(bytes.count) + 10)
    }

    @Test("a cut, foreign, hierarchical or absurd box is refused, never a trap")
    func hostile() {
        let good = Self.box(version: 1, timescale: 1000, firstOffset: 0, references: [(10, 10), (20, 20)])
        let cases: [([UInt8], Int64)] = [
            (Array(good.prefix(30)), 0),
            (Array(good.prefix(good.count - 3)), 0),
            ([0, 0, 0, 16] + Array("moof".utf8) + Array(repeating: 0, count: 8), 0),
            (Self.box(version: 0, timescale: 0, firstOffset: 0, references: [(1, 1)]), 0),
            (Self.box(version: 1, timescale: 1000, firstOffset: 0, references: [(1, 1)], hierarchical: true), 0),
            (Self.box(version: 1, timescale: 1000, firstOffset: UInt64.max, references: [(1, 1)]), 0),
            (good, Int64.max - 10),
            ([], 0),
        ]
        for (bytes, offset) in cases {
            #expect(throws: MP4SegmentIndex.Problem.self) { try MP4SegmentIndex.parse(bytes, at: offset) }
        }
    }
}
