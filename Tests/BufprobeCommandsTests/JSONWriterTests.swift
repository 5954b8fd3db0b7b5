import BufprobeCommands
@testable import CheckEngine
import Foundation
import PlaybackModel
import Testing
import TestSupport
@testable import BufprobeOutput
import ProbeEngine
import SimulateEngine

/// `JSONOutput.string` (bufprobe's own `JSONWriter`) against Foundation's `JSONEncoder` with the same
/// settings: the two must write the same bytes for every value.
@Suite("JSONWriter writes what Foundation's JSONEncoder writes")
struct JSONWriterTests {
    /// Foundation's text, with JSONOutput's C1 escaping, the reference.
    static func reference<T: Encodable>(_ value: T) throws -> String {
        JSONOutput.escapingC1(String(decoding: try JSONOutput.referenceEncoder().encode(value), as: UTF8.self))
    }

    static func expectSame<T: Encodable>(_ value: T, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let ours = try JSONOutput.string(value)
        let theirs = try reference(value)
        #expect(ours == theirs, comment, sourceLocation: sourceLocation)
    }

    struct Inner: Codable {
        var aB: Double
        var empty: [Int] = []
        var emptyObject: [String: Int] = [:]
        var nested: [[Double]] = [[], [1], [2.5, -0.0]]
        var optionals: [Double?] = [nil, 1, nil]
    }

    struct Edges: Codable {
        var fooBarURL = "a/b\"c\\\u{0}\u{1}\u{1f}\u{7f}\u{80}\u{9b}\n\t\u{8}\u{c}\r é 😀"
        var x1: Double = 1.0
        var peak10s = 1e-6
        var peak5s = 5e20
        var peak1s = -0.0
        var aBCd = Float(0.1)
        var floats: [Float] = [.infinity, -.infinity, .nan, .leastNonzeroMagnitude, 3.4e38, 0.5]
        var dict = ["zKey": 1, "aKey": 2, "a10": 3, "a9": 4, "B": 5, "b": 6, "é": 7, "e": 8, "Z_z": 9]
        var inner = Inner(aB: 123_456_789_012_345_680)
        var innerList = [Inner(aB: 1), Inner(aB: .ulpOfOne)]
        var none: Int? = nil
        var some: Int? = 3
        var big = Int64.max
        var small = Int64.min
        var unsigned = UInt64.max
        var bytes: [UInt8] = [0, 255]
        var shorts: [Int16] = [.min, .max]
        var inf = Double.infinity
        var nan = Double.nan
        var minusInf = -Double.infinity
        var subnormal = Double.leastNonzeroMagnitude
        var _lead = 1
        var trail_ = 2
        var HTTPStatus = 3
        var abc2Def = 4
        var a2B = 5
        var yes = true
        var no = false
        var nullEncoded = NullEncodedHolder()
    }

    struct NullEncodedHolder: Codable {
        @NullEncoded var missing: Double? = nil
        @NullEncoded var present: String? = "x"
    }

    @Test("edge cases: numbers, escapes, key conversion and order, empty and nested containers, optionals")
    func edges() throws {
        try Self.expectSame(Edges())
        try Self.expectSame([Edges(), Edges()])
        try Self.expectSame([Inner]())
        try Self.expectSame([[String: Int]]())
        try Self.expectSame([String: Int]())
        try Self.expectSame("top-level \u{1} string")
        try Self.expectSame(2.0)
        try Self.expectSame(Optional<Int>.none)
    }

    /// A value whose keys and entries are chosen at run time, as `Codable` types with custom keys write them.
    struct Dynamic: Encodable {
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        enum Entry {
            case double(Double), float(Float), int(Int), string(String), bool(Bool), null, list([Double]), object(Dynamic)
        }

        var entries: [(String, Entry)]

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for (key, entry) in entries {
                let codingKey = Key(stringValue: key)
                switch entry {
                case .double(let v): try container.encode(v, forKey: codingKey)
                case .float(let v): try container.encode(v, forKey: codingKey)
                case .int(let v): try container.encode(v, forKey: codingKey)
                case .string(let v): try container.encode(v, forKey: codingKey)
                case .bool(let v): try container.encode(v, forKey: codingKey)
                case .null: try container.encodeNil(forKey: codingKey)
                case .list(let v): try container.encode(v, forKey: codingKey)
                case .object(let v): try container.encode(v, forKey: codingKey)
                }
            }
        }
    }

    static func randomString(_ rng: inout SplitMix64, identifier: Bool) -> String {
        let length = Int.random(in: 0...12, using: &rng)
        var scalars = String.UnicodeScalarView()
        for _ in 0..<length {
            let pick = Int.random(in: 0..<10, using: &rng)
            let value: UInt32
            switch (identifier, pick) {
            case (true, 0...3): value = UInt32.random(in: 0x61...0x7A, using: &rng)  // a-z
            case (true, 4...6): value = UInt32.random(in: 0x41...0x5A, using: &rng)  // A-Z
            case (true, 7): value = UInt32.random(in: 0x30...0x39, using: &rng)  // 0-9
            case (true, 8): value = 0x5F  // _
            case (_, 0): value = UInt32.random(in: 0...0x1F, using: &rng)  // C0
            case (_, 1): value = UInt32.random(in: 0x7F...0x9F, using: &rng)  // DEL, C1
            case (_, 2): value = [0x22, 0x5C, 0x2F][Int.random(in: 0..<3, using: &rng)]  // " \ /
            case (_, 3): value = UInt32.random(in: 0xC0...0x24F, using: &rng)  // Latin with case
            case (_, 4): value = UInt32.random(in: 0x391...0x3C9, using: &rng)  // Greek
            case (_, 5): value = UInt32.random(in: 0x1F600...0x1F64F, using: &rng)  // outside the BMP
            case (_, 6): value = 0x301  // a combining accent
            default: value = UInt32.random(in: 0x20...0x7E, using: &rng)
            }
            if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
        }
        return String(scalars)
    }

    static func randomDouble(_ rng: inout SplitMix64) -> Double {
        switch Int.random(in: 0..<5, using: &rng) {
        case 0: return Double(bitPattern: rng.next())  // anything: NaNs, infinities, subnormals
        case 1: return Double(Int.random(in: -1_000_000...1_000_000, using: &rng)) / 1_000
        case 2: return (Double.random(in: 0...1, using: &rng) * 1e6).rounded() / 1e6
        case 3: return Double(Int64.random(in: .min ... .max, using: &rng))
        default: return Double.random(in: -1e-300...1e300, using: &rng)
        }
    }

    static func randomDynamic(_ rng: inout SplitMix64, depth: Int) -> Dynamic {
        var entries: [(String, Dynamic.Entry)] = []
        for _ in 0..<Int.random(in: 0...8, using: &rng) {
            let key = randomString(&rng, identifier: Bool.random(using: &rng))
            let entry: Dynamic.Entry
            switch Int.random(in: 0..<(depth > 0 ? 8 : 7), using: &rng) {
            case 0: entry = .double(randomDouble(&rng))
            case 1: entry = .float(Float(bitPattern: UInt32(truncatingIfNeeded: rng.next())))
            case 2: entry = .int(Int(bitPattern: UInt(rng.next())))
            case 3: entry = .string(randomString(&rng, identifier: false))
            case 4: entry = .bool(Bool.random(using: &rng))
            case 5: entry = .null
            case 6: entry = .list((0..<Int.random(in: 0...4, using: &rng)).map { _ in randomDouble(&rng) })
            default: entry = .object(randomDynamic(&rng, depth: depth - 1))
            }
            entries.append((key, entry))
        }
        return Dynamic(entries: entries)
    }

    // Seeded (SplitMix64), so a failure names a seed that reproduces it.
    @Test("generated documents: keys (converted and sorted), strings, numbers, nesting", arguments: 0..<20)
    func generated(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        for round in 0..<100 {
            let value = Self.randomDynamic(&rng, depth: 3)
            try Self.expectSame(value, "seed \(seed), round \(round)")
        }
        // Dictionaries keep their keys as they are, in Foundation's order.
        var dictionary: [String: Double] = [:]
        for _ in 0..<50 { dictionary[Self.randomString(&rng, identifier: Bool.random(using: &rng))] = Self.randomDouble(&rng) }
        try Self.expectSame(dictionary, "seed \(seed), dictionary")
    }

    /// Every document the commands write, decoded and written again: our writer and Foundation's agree, and
    /// both reproduce the command's own output.
    static func roundTrip<T: Codable>(_ type: T.Type, _ arguments: [String]) throws {
        let run = try BufprobeProcess.run(arguments)
        let value = try JSONOutput.decoder().decode(T.self, from: Data(run.stdout.utf8))
        let ours = try JSONOutput.string(value)
        #expect(ours == (try reference(value)), "\(arguments)")
        #expect(ours + "\n" == run.stdout, "\(arguments)")
    }

    @Test("probe's document on every sample", arguments: Samples.media)
    func probeDocuments(path: String) throws {
        try Self.roundTrip(ProbeReport.self, ["probe", "--json", path])
    }

    @Test("check's and simulate's documents")
    func checkAndSimulateDocuments() throws {
        try Self.roundTrip(CheckReport.self, ["check", "--json", "--progress", "none", BufprobeProcess.sample("h264-aac.mp4")])
        try Self.roundTrip(CheckReport.self, ["check", "--json", "--progress", "none", BufprobeProcess.sample("hls/master.m3u8")])
        try Self.roundTrip(
            SimulateReport.self, ["simulate", "--json", "--bitrate", "1Mbit", "--duration", "20s", "--bandwidth", "800kbit"])
        try Self.roundTrip(
            SimulateReport.self,
            ["simulate", "--json", "--abr", "bola", "--trace", BufprobeProcess.sample("traces/3g-hsdpa.txt"), BufprobeProcess.sample("hls/master.m3u8")])
    }
}
