import Testing
import ValidateEngine

/// The standard's definition of `@bandwidth` (a constant-bit-rate channel, `@minBufferTime` buffered) on
/// hand-made segments whose answer is worked out in the comments.
@Suite struct LeakyBucketTests {
    static func point(_ time: Double, _ bytes: Int64) -> LeakyBucket.Point { LeakyBucket.Point(time: time, bytes: bytes) }

    @Test func smallestRateIsTheMostDemandingPacketFromAnySegmentStart() {
        // Segment 1: a 1,000-byte keyframe needed at 0 s. Segment 2: 500 bytes needed at 2 s.
        let segments = [[Self.point(0, 1000), Self.point(2, 1000)], [Self.point(2, 500), Self.point(4, 500)]]
        // 1 s buffered: the keyframe's 8,000 bits within 1 s, 8,000 bit/s (from segment 2: 4,000 bits in 1 s).
        #expect(LeakyBucket.minimumBandwidth(segments, minBufferTime: 1) == 8000)
        // 2 s buffered: 8,000 bits in 2 s, 4,000 bit/s; both segments' 12,000 bits by 2 + 2 s ask 3,000.
        #expect(LeakyBucket.minimumBandwidth(segments, minBufferTime: 2) == 4000)
    }

    @Test func laterSegmentStartCanBeTheMostDemanding() {
        // A light first segment, then a heavy one: delivery that starts at the heavy one needs the most.
        let segments = [[Self.point(0, 100), Self.point(2, 100)], [Self.point(2, 4000), Self.point(4, 4000)]]
        // From segment 2: 32,000 bits in 1 s. From segment 1: 32,800 bits by 1 + 2 s, 10,933 bit/s.
        #expect(LeakyBucket.minimumBandwidth(segments, minBufferTime: 1) == 32_000)
    }

    @Test func noBufferTimeOrNoSegmentIsNotJudged() {
        #expect(LeakyBucket.minimumBandwidth([[Self.point(0, 10)]], minBufferTime: 0) == nil)
        #expect(LeakyBucket.minimumBandwidth([[]], minBufferTime: 2) == nil)
        #expect(LeakyBucket.minimumBandwidth([[Self.point(0, 10)]], minBufferTime: .infinity) == nil)
    }

    @Test func curveKeepsOnlyItsUpperHull() {
        var curve = LeakyBucket.Curve()
        for (time, bytes) in [(2.0, Int64(400)), (0, 100), (1, 150), (3, 450), (.nan, 999)] { curve.add(time: time, bytes: bytes) }
        // (1, 150) lies under the line from (0, 100) to (2, 400): no delivery start finds it the most demanding.
        #expect(curve.points == [Self.point(0, 100), Self.point(2, 400), Self.point(3, 450)])
    }
}

/// `@frameRate` as the MPD writes it.
@Suite struct DASHFrameRateTests {
    @Test(arguments: [("25", 25.0), ("25/1", 25), ("50/2", 25)])
    func frameRateIsParsed(text: String, rate: Double) {
        #expect(DASHRules.frameRate(text) == rate)
    }

    @Test func ntscRateAndNonsense() {
        #expect(abs((DASHRules.frameRate("30000/1001") ?? 0) - 29.97) < 0.001)
        for text in ["", "x", "25/0", "-25", "1/2/3", "inf"] { #expect(DASHRules.frameRate(text) == nil, "\(text)") }
    }
}
