import PlaybackModel
import Testing

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

    @Test("values outside the accepted ranges are bounded, so no caller can make a count overflow", arguments: [
        (1e300, 1e300), (.infinity, .infinity), (.nan, .nan), (-5, -5), (1e6, 1e19),
    ])
    func boundedValues(bitsPerSecond: Double, duration: Double) {
        let media = SyntheticMedia(bitsPerSecond: bitsPerSecond, duration: duration, variation: .nan)
        #expect(media.bitsPerSecond >= 0 && media.bitsPerSecond <= BitRate.maximum)
        #expect(media.duration >= 0 && media.duration <= Seconds.maximum)
        #expect(media.variation == 0)
        #expect(media.packetCount >= 0 && media.packetCount < 50_000_000)
        _ = media.restartIndex(for: .greatestFiniteMagnitude)
        var iterator = media.makeIterator()
        for _ in 0..<3 { _ = iterator.next() }
    }
}
