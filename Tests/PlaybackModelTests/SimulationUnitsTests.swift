import PlaybackModel
import Testing

@Suite("Simulation units")
struct SimulationUnitsTests {
    @Test(
        "durations accept ms, s, m, h, clock notation and plain seconds",
        arguments: [
            ("250ms", 0.25), ("1.5s", 1.5), ("2m", 120), ("2min", 120), ("1h", 3600), ("90", 90),
            ("0", 0), ("1:30", 90), ("1:02:03", 3723), (" 10 s ", 10), ("1e3ms", 1),
        ])
    func durations(text: String, seconds: Double) throws {
        #expect(try UnitParser.seconds(text) == seconds)
    }

    @Test(
        "bit rates use decimal prefixes, bits or bytes per second, and plain bits per second",
        arguments: [
            ("500kbit", 500_000), ("2Mbit", 2_000_000), ("1Gbit", 1e9), ("2Mbit/s", 2e6), ("2Mbps", 2e6),
            ("250kB/s", 2_000_000), ("1MB/s", 8e6), ("64000", 64_000), ("1.5 Mbit", 1.5e6), ("0", 0),
            ("800bit", 800), ("100B/s", 800),
        ])
    func bitRates(text: String, bitsPerSecond: Double) throws {
        #expect(try UnitParser.bitsPerSecond(text) == bitsPerSecond)
    }

    @Test(
        "malformed or negative quantities are one sentence naming the text",
        arguments: [
            ("5 parsecs", UnitError.Quantity.duration, "'5 parsecs' has an unknown unit 'parsecs'"),
            ("-3s", .duration, "'-3s' must not be negative"),
            ("fast", .duration, "'fast' is not a duration"),
            ("1:75", .duration, "'1:75' is not a duration"),
            ("2Mb", .bitRate, "'2Mb' has an unknown unit 'Mb'"),
            ("-1Mbit", .bitRate, "'-1Mbit' must not be negative"),
            ("3kB", .bitRate, "'3kB' has an unknown unit 'kB'"),
            ("nan", .bitRate, "'nan' is not a bit rate"),
        ])
    func rejected(text: String, quantity: UnitError.Quantity, message: String) {
        #expect {
            switch quantity {
            case .duration: _ = try UnitParser.seconds(text)
            default: _ = try UnitParser.bitsPerSecond(text)
            }
        } throws: { error in
            guard let error = error as? UnitError else { return false }
            return error.quantity == quantity && error.description.hasPrefix(message)
                && error.description.hasSuffix(".")
        }
    }

    @Test("playback rates must be positive numbers; a trailing x is allowed")
    func rates() throws {
        #expect(try UnitParser.positiveNumber("1.5") == 1.5)
        #expect(try UnitParser.positiveNumber("2x") == 2)
        #expect(throws: UnitError.self) { try UnitParser.positiveNumber("0") }
        #expect(throws: UnitError.self) { try UnitParser.positiveNumber("quick") }
    }

    @Test("formatting for people picks the largest fitting unit")
    func formatting() {
        #expect(UnitParser.format(seconds: 0.25) == "250ms")
        #expect(UnitParser.format(seconds: 1.5) == "1.5s")
        #expect(UnitParser.format(seconds: 150) == "2m30s")
        #expect(UnitParser.format(seconds: 3720) == "1h2m")
        #expect(UnitParser.format(bitsPerSecond: 2_500_000) == "2.5Mbit/s")
        #expect(UnitParser.format(bitsPerSecond: 640_000) == "640kbit/s")
    }
}

@Suite("Synthetic media")
struct SyntheticMediaTests {
    @Test("constant bit rate: the file is the rate times the length, video frames all the same size")
    func constant() {
        let packets = SyntheticMedia(bitsPerSecond: 3_000_000, duration: 60).packets()
        let bytes = packets.reduce(0) { $0 + $1.size }
        #expect(abs(bytes - 3_000_000 / 8 * 60) <= 2)
        let video = packets.filter { $0.stream == SyntheticMedia.videoStream }
        #expect(video.count == 1_800)
        #expect(Set(video.map(\.size)).count <= 2)
        #expect(video.filter(\.isKeyframe).count == 30)
        #expect(packets.filter { $0.stream == SyntheticMedia.audioStream }.count == 2_813)
    }

    @Test("packets are in presentation order with contiguous byte positions")
    func layout() {
        let packets = SyntheticMedia(bitsPerSecond: 1_000_000, duration: 5, variation: 0.5, seed: 4).packets()
        var position: Int64 = 0
        var time = -1.0
        for packet in packets {
            #expect(packet.position == position)
            #expect((packet.pts ?? -1) >= time)
            position += Int64(packet.size)
            time = packet.pts ?? time
        }
    }

    @Test("variation comes from the seed: same seed same sizes, another seed other sizes, average kept")
    func variation() {
        let a = SyntheticMedia(bitsPerSecond: 2_000_000, duration: 120, variation: 0.5, seed: 1).packets()
        let b = SyntheticMedia(bitsPerSecond: 2_000_000, duration: 120, variation: 0.5, seed: 1).packets()
        let c = SyntheticMedia(bitsPerSecond: 2_000_000, duration: 120, variation: 0.5, seed: 2).packets()
        #expect(a == b)
        #expect(a != c)
        let bytes = Double(a.reduce(0) { $0 + $1.size })
        #expect(abs(bytes / (2_000_000 / 8 * 120) - 1) < 0.02)
        let video = a.filter { $0.stream == SyntheticMedia.videoStream }
        let keyframeMean = Double(video.filter(\.isKeyframe).reduce(0) { $0 + $1.size }) / 60
        let otherMean = Double(video.filter { !$0.isKeyframe }.reduce(0) { $0 + $1.size }) / Double(video.count - 60)
        #expect(keyframeMean / otherMean > 2.5)
    }

    @Test("SplitMix64 gives the published sequence for seed 0")
    func splitMix() {
        var generator = SplitMix64(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
    }
}

@Suite("Synthetic media generated lazily")
struct LazySyntheticMediaTests {
    static let cases: [SyntheticMedia] = [
        SyntheticMedia(bitsPerSecond: 1_000_000, duration: 61.3),
        SyntheticMedia(bitsPerSecond: 3_000_000, duration: 20, variation: 0.4, seed: 7),
        SyntheticMedia(bitsPerSecond: 64_000, duration: 0.5),
    ]

    @Test("the lazy media has the same units, start, end, size and restart points as the stored packets", arguments: cases)
    func sameAsStored(synthetic: SyntheticMedia) {
        let stored = SimulationMedia.progressive(
            packets: synthetic.packets(), playableStreams: [SyntheticMedia.videoStream, SyntheticMedia.audioStream])
        let lazy = SimulationMedia.synthetic(synthetic)
        #expect(lazy.unitCount == stored.unitCount)
        #expect(lazy.units == stored.units)
        #expect(lazy.startTime == stored.startTime)
        #expect(lazy.endTime == stored.endTime)
        #expect(lazy.totalBytes == stored.totalBytes)
        for time in stride(from: -1.0, through: synthetic.duration + 1, by: 0.37) {
            #expect(lazy.restartUnit(for: time) == stored.restartUnit(for: time), "at \(time)")
        }
        // Reading backwards (a seek) regenerates the same units.
        var reader = lazy.makeReader()
        let last = lazy.unitCount - 1
        let late = reader.unit(last)
        #expect(reader.unit(0) == stored.units[0])
        #expect(reader.unit(last) == late)
    }
}
