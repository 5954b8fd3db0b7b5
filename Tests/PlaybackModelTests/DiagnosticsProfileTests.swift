import PlaybackModel
import Testing

private func packet(
    _ stream: Int, _ time: Double, size: Int, at position: Int64? = nil, duration: Double = 0.04, key: Bool = false
) -> MediaPacket {
    MediaPacket(stream: stream, pts: time, dts: time, duration: duration, size: size, position: position, isKeyframe: key)
}

@Suite("InterleaveSkew, BitRateProfile, GOPStats, BitRateTimeline")
struct DiagnosticsProfileTests {
    @Test("perfectly interleaved streams have no skew")
    func interleaved() {
        var skew = InterleaveSkew(first: 0, second: 1)
        var position: Int64 = 0
        for i in 0..<100 {
            skew.add(packet(0, Double(i) * 0.1, size: 500, at: position, duration: 0.1))
            position += 500
            skew.add(packet(1, Double(i) * 0.1, size: 100, at: position, duration: 0.1))
            position += 100
        }
        #expect(skew.maxSkewSeconds == 0)
        #expect(skew.maxSkewBytes == 100)
    }

    @Test("all video before all audio: the skew is the whole video, in seconds and bytes")
    func notInterleaved() {
        var skew = InterleaveSkew(first: 0, second: 1)
        for i in 0..<100 { skew.add(packet(0, Double(i) * 0.1, size: 500, at: Int64(i) * 500, duration: 0.1)) }
        for i in 0..<100 { skew.add(packet(1, Double(i) * 0.1, size: 100, at: 50_000 + Int64(i) * 100, duration: 0.1)) }
        // The first audio packet (ends 0.1 s, byte 50,100) meets video that reached 10 s; video reached
        // 0.1 s at byte 500.
        #expect(abs(skew.maxSkewSeconds - 9.9) < 1e-9)
        #expect(skew.maxSkewBytes == 50_100 - 500)
    }

    @Test("audio one second ahead of video in the file: one second of skew")
    func audioAhead() {
        var skew = InterleaveSkew(first: 0, second: 1)
        var position: Int64 = 0
        for i in 0..<100 {
            skew.add(packet(1, Double(i) * 0.1 + 1, size: 100, at: position, duration: 0.1))
            position += 100
            skew.add(packet(0, Double(i) * 0.1, size: 100, at: position, duration: 0.1))
            position += 100
        }
        #expect(abs(skew.maxSkewSeconds - 1) < 1e-9)
        // Video packet i (ends at 0.1(i+1) s, byte 200i + 200) meets the audio for that time in packet
        // i - 10 (ends at byte 200(i - 10) + 100): 2,100 bytes earlier.
        #expect(skew.maxSkewBytes == 2_100)
    }

    @Test("peaks over 1, 5 and 10 s against the average; a window longer than the media has no peak")
    func profile() {
        var profile = BitRateProfile()
        // 12 s: the first second 100 kB, then 10 kB per second, in 0.5 s packets.
        for i in 0..<24 {
            let size = i < 2 ? 50_000 : 5_000
            profile.add(packet(0, Double(i) * 0.5, size: size, duration: 0.5))
        }
        #expect(profile.span == 12)
        #expect(profile.averageBitsPerSecond == Double(100_000 + 22 * 5_000) * 8 / 12)
        let peaks = profile.peaks
        #expect(peaks.map(\.window) == [1, 5, 10])
        #expect(peaks[0].bitsPerSecond == Double(100_000 * 8))
        #expect(peaks[1].bitsPerSecond == Double(100_000 + 8 * 5_000) * 8 / 5)
        #expect(peaks[2].bitsPerSecond == Double(100_000 + 18 * 5_000) * 8 / 10)

        var short = BitRateProfile()
        for i in 0..<10 { short.add(packet(0, Double(i) * 0.5, size: 1_000, duration: 0.5)) }
        #expect(short.peaks[2].bitsPerSecond == nil)
        #expect(short.peaks[1].bitsPerSecond != nil)
    }

    @Test("GOP spacing: keyframe intervals and frames per GOP, the open last GOP included")
    func gop() throws {
        var stats = GOPStats()
        #expect(stats.interval == nil && stats.framesPerGOP == nil)
        let keyframes: Set<Int> = [0, 50, 100, 130]
        for frame in 0..<150 { stats.add(time: Double(frame) * 0.04, isKeyframe: keyframes.contains(frame)) }
        let interval = try #require(stats.interval)
        #expect(abs(interval.min - 1.2) < 1e-9 && abs(interval.max - 2) < 1e-9)
        #expect(abs(interval.avg - 5.2 / 3) < 1e-9)
        let frames = try #require(stats.framesPerGOP)
        #expect(frames.min == 20 && frames.max == 50 && frames.avg == 150.0 / 4)
    }

    @Test("the timeline puts bytes in the second they are presented and keeps the played video's keyframes")
    func timeline() {
        var timeline = BitRateTimeline(keyframeStream: 0)
        timeline.add(packet(1, -0.02, size: 10))  // priming before the first packet: slice 0
        timeline.add(packet(0, 0, size: 1_000, key: true))
        timeline.add(packet(0, 0.5, size: 500))
        timeline.add(packet(1, 0.5, size: 100, key: true))
        timeline.add(packet(0, 2.5, size: 2_000, key: true))
        #expect(timeline.anchor == -0.02)
        let rates = timeline.rates
        #expect(rates.map(\.start) == [-0.02, 1.98])
        #expect(rates.map(\.bitsPerSecond) == [1_610 * 8, 2_000 * 8])
        #expect(timeline.keyframes == [0, 2.5])
    }

    @Test("the timeline's memory follows the packets, not the time between them, and any timestamp is safe")
    func timelineWithDamagedTimestamps() {
        var timeline = BitRateTimeline(keyframeStream: 0)
        timeline.add(packet(0, -1e18, size: 100, key: true))
        timeline.add(packet(0, -1e18 + 1e12, size: 300))  // a trillion empty slices after the first
        timeline.add(packet(0, 9e18, size: 200))  // 1e19 slices after the anchor: more than an Int counts
        timeline.add(packet(0, -9e18, size: 400))  // before the anchor: slice 0
        timeline.add(packet(0, -.infinity, size: 800))
        let rates = timeline.rates
        #expect(rates.map(\.start) == [-1e18, -1e18 + 1e12])
        #expect(rates.map(\.bitsPerSecond) == [500 * 8, 300 * 8])
    }
}
