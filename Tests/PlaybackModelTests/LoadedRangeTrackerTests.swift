import PlaybackModel
import Testing

private func packet(_ stream: Int, _ pts: Double?, _ duration: Double?, dts: Double? = nil) -> MediaPacket {
    MediaPacket(stream: stream, pts: pts, dts: dts, duration: duration, size: 100, position: nil, isKeyframe: false)
}

/// Rounds `t` down to a whole tick of `timeBase` seconds, as a container's integer timestamps do.
private func rounded(_ t: Double, _ ticksPerSecond: Double) -> Double {
    (t * ticksPerSecond).rounded(.down) / ticksPerSecond
}

@Suite("LoadedRangeTracker")
struct LoadedRangeTrackerTests {
    /// Frame durations and the tick rates their timestamps are rounded to.
    static let roundingCases: [(frame: Double, ticksPerSecond: Double)] = [
        (1001.0 / 30000, 90_000),  // 29.97 fps video at 90 kHz
        (1.0 / 30, 1000),  // 30 fps video in a millisecond time base (FLV, RTMP)
        (1024.0 / 44100, 1000),  // AAC in a millisecond time base (Matroska)
        (1024.0 / 44100, 44100),  // AAC at its sample rate
    ]

    @Test("timestamp rounding of whole frames never shows as a gap", arguments: roundingCases)
    func roundingIsNotAGap(frame: Double, ticksPerSecond: Double) {
        var tracker = LoadedRangeTracker(playableStreams: [0])
        let duration = rounded(frame, ticksPerSecond)
        for i in 0..<3000 {
            tracker.add(packet(0, rounded(Double(i) * frame, ticksPerSecond), duration))
        }
        #expect(tracker.playable.count == 1)
        #expect(tracker.playable.start == 0)
        #expect(abs((tracker.playable.end ?? 0) - 3000 * frame) < 0.05)
    }

    @Test("a real half-second hole shows as a gap")
    func realHoleIsAGap() {
        var tracker = LoadedRangeTracker(playableStreams: [0])
        for i in 0..<100 { tracker.add(packet(0, Double(i) / 25, 0.04)) }
        for i in 0..<100 { tracker.add(packet(0, 4.5 + Double(i) / 25, 0.04)) }
        #expect(tracker.playable.count == 2)
        #expect(tracker.playable.gaps.count == 1)
        #expect(abs(tracker.playable.gaps[0].duration - 0.5) < 1e-9)
    }

    @Test("B-frames arriving in decode order close into one range, with few ranges on the way")
    func bFramesClose() {
        var tracker = LoadedRangeTracker(playableStreams: [0])
        let frame = 1.0 / 25
        // I P B B P B B ...: decode order shows each P before the two B-frames it follows in time.
        var decodeOrder: [Int] = [0]
        var gop = 1
        while gop + 2 < 300 {
            decodeOrder += [gop + 2, gop, gop + 1]
            gop += 3
        }
        var peak = 0
        for index in decodeOrder {
            tracker.add(packet(0, Double(index) * frame, frame, dts: nil))
            peak = max(peak, tracker.ranges(forStream: 0).count)
        }
        #expect(tracker.playable.ranges == [TimeRange(start: 0, end: Double(decodeOrder.max()! + 1) * frame)])
        #expect(peak <= 2)
    }

    @Test("negative start times (encoder priming) are kept")
    func negativeStart() {
        var tracker = LoadedRangeTracker(playableStreams: [1])
        let frame = 1024.0 / 48000
        for i in -2..<100 { tracker.add(packet(1, Double(i) * frame, frame)) }
        #expect(tracker.playable.start == -2 * frame)
        #expect(tracker.playable.count == 1)
    }

    @Test("missing durations use the last known duration of the stream", arguments: [nil, 0.0] as [Double?])
    func missingDurationUsesLastKnown(missing: Double?) {
        var tracker = LoadedRangeTracker(playableStreams: [0])
        tracker.add(packet(0, 0, 0.5))
        tracker.add(packet(0, 0.5, missing))
        tracker.add(packet(0, 1.0, missing))
        #expect(tracker.playable.ranges == [TimeRange(start: 0, end: 1.5)])
    }

    @Test("a stream that never states durations uses its timestamp step, including for its first packets")
    func missingDurationUsesStep() {
        var tracker = LoadedRangeTracker(playableStreams: [0])
        for i in 0..<10 { tracker.add(packet(0, Double(i) * 0.2, nil)) }
        #expect(tracker.playable.ranges == [TimeRange(start: 0, end: 2.0)])
    }

    @Test("dts stands in for an unknown pts and a packet with neither is skipped")
    func dtsFallback() {
        var tracker = LoadedRangeTracker(playableStreams: [0])
        tracker.add(packet(0, nil, 1, dts: 3))
        tracker.add(packet(0, nil, 1, dts: nil))
        #expect(tracker.playable.ranges == [TimeRange(start: 3, end: 4)])
    }

    @Test("playable is the intersection of the playable streams and ignores the others")
    func playableIntersection() {
        var tracker = LoadedRangeTracker(playableStreams: [0, 1])
        for i in 0..<100 { tracker.add(packet(0, Double(i) * 0.04, 0.04)) }  // video to 4 s
        for i in 0..<50 { tracker.add(packet(1, Double(i) * 0.05, 0.05)) }  // audio to 2.5 s
        for i in 0..<10 { tracker.add(packet(2, Double(i), 1)) }  // subtitles to 10 s, not played
        #expect(tracker.playable.count == 1)
        #expect(abs((tracker.playable.end ?? 0) - 2.5) < 1e-9)
        #expect(tracker.ranges(forStream: 2).end == 10)
        #expect(tracker.seenStreams == [0, 1, 2])
        #expect(LoadedRangeTracker(playableStreams: [0, 1]).playable.isEmpty)
    }

    @Test("a playable stream with no data yet leaves nothing playable")
    func missingStreamBlocks() {
        var tracker = LoadedRangeTracker(playableStreams: [0, 1])
        for i in 0..<10 { tracker.add(packet(0, Double(i), 1)) }
        #expect(tracker.playable.isEmpty)
        #expect(tracker.ranges(forStream: 0).totalDuration == 10)
    }
}
