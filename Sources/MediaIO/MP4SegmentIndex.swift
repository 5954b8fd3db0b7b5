/// An MP4 segment index box (`sidx`, ISO/IEC 14496-12 §8.16.3): the sizes and durations of the segments
/// (subsegments) of a single-file DASH representation, each starting where the one before ends.
///
/// Only media references are accepted; a `sidx` that points to further `sidx` boxes (hierarchical
/// indexes) is refused. Every field is checked before it is used, so no box can make this trap.
public struct MP4SegmentIndex: Sendable, Hashable {
    /// One referenced segment.
    public struct Reference: Sendable, Hashable {
        /// Its bytes.
        public var size: Int64
        /// Its duration in seconds.
        public var duration: Double
    }

    /// The segments, in file order.
    public var references: [Reference]
    /// The file offset of the first segment's first byte.
    public var firstOffset: Int64

    /// Why a box is not a usable index.
    public enum Problem: Error, Sendable, Hashable {
        /// Not a `sidx` box, cut short, or with fields that make no sense; the reason in words.
        case invalid(String)
    }

    /// The most references read from one box.
    public static let maximumReferences = 500_000

    /// Reads the `sidx` box at the start of `bytes`, which sits at file offset `offset`.
    public static func parse(_ bytes: [UInt8], at offset: Int64) throws(Problem) -> MP4SegmentIndex {
        var reader = Reader(bytes: bytes)
        guard let size32 = reader.uint32(), let type = reader.bytes(4) else { throw .invalid("it is cut short") }
        guard type == Array("sidx".utf8) else { throw .invalid("it is not a sidx box") }
        var boxSize = Int64(size32)
        if size32 == 1 {
            guard let large = reader.uint64(), large <= UInt64(Int64.max) else { throw .invalid("its size is out of range") }
            boxSize = Int64(large)
        }
        guard boxSize >= 8, let version = reader.uint8(), reader.bytes(3) != nil, reader.uint32() != nil,
            let timescale = reader.uint32(), timescale > 0
        else { throw .invalid("its header is cut short or its timescale is 0") }
        let first: UInt64?
        if version == 0 {
            _ = reader.uint32()
            first = reader.uint32().map(UInt64.init)
        } else {
            _ = reader.uint64()
            first = reader.uint64()
        }
        guard let first, reader.bytes(2) != nil, let count = reader.uint16() else { throw .invalid("it is cut short") }
        guard Int(count) <= maximumReferences else { throw .invalid("it lists too many segments") }
        let (end, endOverflow) = offset.addingReportingOverflow(boxSize)
        guard !endOverflow, first <= UInt64(Int64.max - end) else { throw .invalid("its offsets are out of range") }
        var references: [Reference] = []
        references.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard let word = reader.uint32(), let duration = reader.uint32(), reader.uint32() != nil else {
                throw .invalid("its list of segments is cut short")
            }
            guard word & 0x8000_0000 == 0 else {
                throw .invalid("it points to further sidx boxes (a hierarchical index), which simulate does not follow")
            }
            references.append(Reference(size: Int64(word & 0x7FFF_FFFF), duration: Double(duration) / Double(timescale)))
        }
        return MP4SegmentIndex(references: references, firstOffset: end + Int64(first))
    }

    /// Big-endian fields from the front of a byte array, `nil` past its end.
    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        mutating func bytes(_ count: Int) -> [UInt8]? {
            guard count >= 0, position <= bytes.count - count else { return nil }
            defer { position += count }
            return Array(bytes[position..<(position + count)])
        }

        mutating func uint8() -> UInt8? { bytes(1)?.first }
        mutating func uint16() -> UInt16? { bytes(2).map { $0.reduce(0) { $0 << 8 | UInt16($1) } } }
        mutating func uint32() -> UInt32? { bytes(4).map { $0.reduce(0) { $0 << 8 | UInt32($1) } } }
        mutating func uint64() -> UInt64? { bytes(8).map { $0.reduce(0) { $0 << 8 | UInt64($1) } } }
    }
}
