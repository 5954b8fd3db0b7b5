import Foundation
import PlaybackModel
import PropertyBased
import Testing

/// A reference for `TimeRanges` on a grid of quarter seconds: the covered cells, as a set, with gaps of at
/// most `toleranceCells` cells filled. Exact because every bound is a multiple of 0.25.
private struct CellReference {
    static let cell = 0.25
    var cells: Set<Int> = []

    mutating func insert(startCell: Int, endCell: Int) {
        guard endCell > startCell else { return }
        for c in startCell..<endCell { cells.insert(c) }
    }

    func ranges(toleranceCells: Int) -> [TimeRange] {
        var runs: [(Int, Int)] = []
        for c in cells.sorted() {
            if let last = runs.last, c - last.1 <= toleranceCells {
                runs[runs.count - 1].1 = c + 1
            } else {
                runs.append((c, c + 1))
            }
        }
        return runs.map { TimeRange(start: Double($0.0) * Self.cell, end: Double($0.1) * Self.cell) }
    }
}

@Suite("TimeRanges")
struct TimeRangesTests {
    @Test("in-order inserts that touch or overlap merge into one range")
    func inOrderMerge() {
        var set = TimeRanges(tolerance: 0)
        set.insert(start: 0, end: 1)
        set.insert(start: 1, end: 2)
        set.insert(start: 1.5, end: 3)
        #expect(set.ranges == [TimeRange(start: 0, end: 3)])
    }

    @Test(
        "a gap merges when no wider than the tolerance and stays when wider",
        arguments: [(0.0005, 1), (0.001, 1), (0.0011, 2), (0.5, 2)])
    func toleranceMerge(gap: Double, expectedCount: Int) {
        var set = TimeRanges(tolerance: 0.001)
        set.insert(start: 0, end: 1)
        set.insert(start: 1 + gap, end: 2)
        #expect(set.count == expectedCount)
    }

    @Test("zero-length and inverted inserts are ignored and leave the set intact")
    func zeroLength() {
        var set = TimeRanges()
        set.insert(start: 0, end: 1)
        set.insert(start: 5, end: 5)
        set.insert(start: 7, end: 6)
        set.insert(start: .nan, end: 8)
        set.insert(start: 0.5, end: 0.5)
        #expect(set.ranges == [TimeRange(start: 0, end: 1)])
        var empty = TimeRanges()
        empty.insert(start: 3, end: 3)
        #expect(empty.isEmpty)
        #expect(empty.start == nil && empty.end == nil)
    }

    @Test("an out-of-order insert bridging several ranges merges them all")
    func bridge() {
        var set = TimeRanges(tolerance: 0)
        for s in stride(from: 0.0, to: 10, by: 2) { set.insert(start: s, end: s + 1) }
        #expect(set.count == 5)
        set.insert(start: 0.5, end: 6.5)
        #expect(set.ranges == [TimeRange(start: 0, end: 7), TimeRange(start: 8, end: 9)])
        set.insert(start: -3, end: -2)
        #expect(set.first == TimeRange(start: -3, end: -2))
    }

    @Test("negative times are ordinary times")
    func negativeTimes() {
        var set = TimeRanges()
        set.insert(start: -0.5, end: 0)
        set.insert(start: 0, end: 2)
        #expect(set.ranges == [TimeRange(start: -0.5, end: 2)])
        #expect(set.contains(-0.25))
        #expect(set.bufferedAhead(from: -0.5) == 2.5)
    }

    @Test("contains and range(containing:) are half-open")
    func halfOpen() {
        let set = TimeRanges([TimeRange(start: 1, end: 2), TimeRange(start: 3, end: 4)])
        #expect(set.contains(1))
        #expect(!set.contains(2))
        #expect(!set.contains(0.999))
        #expect(set.range(containing: 3.5) == TimeRange(start: 3, end: 4))
        #expect(set.range(containing: 2.5) == nil)
        #expect(set.range(containing: 4) == nil)
    }

    @Test("bufferedAhead counts only the range holding the time, not data after a gap")
    func bufferedAhead() {
        let set = TimeRanges([TimeRange(start: 0, end: 10), TimeRange(start: 20, end: 30)])
        #expect(set.bufferedAhead(from: 4) == 6)
        #expect(set.bufferedAhead(from: 15) == 0)
        #expect(set.bufferedAhead(from: 10) == 0)
        #expect(set.bufferedAhead(from: 25) == 5)
        #expect(set.totalDuration == 20)
    }

    @Test("removeAll(before:) evicts data behind a time and cuts the range holding it")
    func evict() {
        var set = TimeRanges([TimeRange(start: 0, end: 10), TimeRange(start: 20, end: 30)])
        set.removeAll(before: 5)
        #expect(set.ranges == [TimeRange(start: 5, end: 10), TimeRange(start: 20, end: 30)])
        set.removeAll(before: 15)
        #expect(set.ranges == [TimeRange(start: 20, end: 30)])
        set.removeAll(from: 25)
        #expect(set.ranges == [TimeRange(start: 20, end: 25)])
    }

    @Test("gaps(within:) reports holes and the uncovered head and tail of the window")
    func gaps() {
        let set = TimeRanges([TimeRange(start: 1, end: 2), TimeRange(start: 3, end: 4)])
        #expect(set.gaps == [TimeRange(start: 2, end: 3)])
        #expect(
            set.gaps(within: TimeRange(start: 0, end: 5)) == [
                TimeRange(start: 0, end: 1), TimeRange(start: 2, end: 3), TimeRange(start: 4, end: 5),
            ])
        #expect(set.gaps(within: TimeRange(start: 1.5, end: 3.5)) == [TimeRange(start: 2, end: 3)])
        #expect(TimeRanges().gaps(within: TimeRange(start: 0, end: 1)) == [TimeRange(start: 0, end: 1)])
    }

    @Test("a time range encodes as the array [start, end] and a set as an array of those")
    func codable() throws {
        let set = TimeRanges([TimeRange(start: 0, end: 1.5), TimeRange(start: 3, end: 4)])
        let data = try JSONEncoder().encode(set)
        #expect(String(decoding: data, as: UTF8.self) == "[[0,1.5],[3,4]]")
        #expect(try JSONDecoder().decode(TimeRanges.self, from: data) == set)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(TimeRange.self, from: Data("[1,2,3]".utf8))
        }
    }

    @Test(
        "random inserts keep the set sorted, disjoint and equal to a cell-by-cell reference",
        arguments: [0, 1])
    func randomInsertsMatchReference(toleranceCells: Int) {
        var rng = Xoshiro(seed: (1, 2, 3, UInt64(toleranceCells)))
        for _ in 0..<300 {
            var set = TimeRanges(tolerance: Double(toleranceCells) * CellReference.cell)
            var reference = CellReference()
            let inserts = Int.random(in: 0...40, using: &rng)
            for _ in 0..<inserts {
                let a = Int.random(in: -40...40, using: &rng)
                let b = a + Int.random(in: -1...8, using: &rng)
                set.insert(start: Double(a) * CellReference.cell, end: Double(b) * CellReference.cell)
                reference.insert(startCell: a, endCell: b)
            }
            #expect(set.ranges == reference.ranges(toleranceCells: toleranceCells))
            for (a, b) in zip(set.ranges, set.ranges.dropFirst()) {
                #expect(a.start < a.end && a.end < b.start)
                #expect(b.start - a.end > set.tolerance)
            }
        }
    }

    @Test("intersection, subtraction and queries agree with the cell reference on random sets")
    func randomSetAlgebraMatchesReference() {
        var rng = Xoshiro(seed: (9, 8, 7, 6))
        func randomSet() -> (TimeRanges, CellReference) {
            var set = TimeRanges(tolerance: 0)
            var reference = CellReference()
            for _ in 0..<Int.random(in: 0...12, using: &rng) {
                let a = Int.random(in: -30...30, using: &rng)
                let b = a + Int.random(in: 1...10, using: &rng)
                set.insert(start: Double(a) * 0.25, end: Double(b) * 0.25)
                reference.insert(startCell: a, endCell: b)
            }
            return (set, reference)
        }
        for _ in 0..<300 {
            let (a, refA) = randomSet()
            let (b, refB) = randomSet()
            #expect(a.intersection(b).ranges == CellReference(cells: refA.cells.intersection(refB.cells)).ranges(toleranceCells: 0))
            #expect(a.subtracting(b).ranges == CellReference(cells: refA.cells.subtracting(refB.cells)).ranges(toleranceCells: 0))
            #expect(a.totalDuration == Double(refA.cells.count) * 0.25)
            for probe in -42...42 {
                let t = Double(probe) * 0.25
                #expect(a.contains(t) == refA.cells.contains(probe))
                var ahead = 0
                while refA.cells.contains(probe + ahead) { ahead += 1 }
                #expect(a.bufferedAhead(from: t) == Double(ahead) * 0.25)
            }
            var evicted = a
            let cut = Int.random(in: -30...30, using: &rng)
            evicted.removeAll(before: Double(cut) * 0.25)
            #expect(evicted.ranges == CellReference(cells: refA.cells.filter { $0 >= cut }).ranges(toleranceCells: 0))
            let window = TimeRange(start: -8, end: 8)
            let windowCells = Set(-32..<32)
            #expect(
                a.gaps(within: window) == CellReference(cells: windowCells.subtracting(refA.cells)).ranges(toleranceCells: 0))
        }
    }

    @Test("many in-order inserts around one real hole keep exactly two ranges")
    func memoryIsPerGap() {
        var set = TimeRanges()
        for i in 0..<100_000 {
            let start = Double(i) * 0.02 + (i >= 50_000 ? 0.5 : 0)
            set.insert(start: start, end: start + 0.02)
        }
        #expect(set.count == 2)
    }
}
