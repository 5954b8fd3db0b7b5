import MediaIO
import Testing

@Suite("TimestampContinuity: restarting timestamps become one timeline")
struct TimestampContinuityTests {
    /// Feeds two streams (video at 25 fps, audio at ~43 packets/s) for `seconds` from `start`.
    func feed(_ mapping: inout TimestampContinuity, from start: Double, seconds: Double) -> [Double] {
        var times: [Double] = []
        var video = 0.0
        var audio = 0.0
        while video < seconds || audio < seconds {
            if video <= audio {
                times.append(mapping.map(stream: 0, pts: start + video, dts: start + video, duration: 0.04).dts ?? .nan)
                video += 0.04
            } else {
                times.append(mapping.map(stream: 1, pts: start + audio, dts: start + audio, duration: 1024.0 / 44100).dts ?? .nan)
                audio += 1024.0 / 44100
            }
        }
        return times
    }

    @Test("timestamps that restart continue where the previous run ended, for every stream")
    func restart() {
        var mapping = TimestampContinuity()
        let first = feed(&mapping, from: 1.4, seconds: 6)
        let second = feed(&mapping, from: 1.4, seconds: 6)
        #expect(mapping.discontinuities == 1)
        let end = first.max() ?? 0
        #expect(abs((second.min() ?? 0) - end) < 0.1, "second run starts at \(second.min() ?? 0), first ended at \(end)")
        #expect(abs((second.max() ?? 0) - (1.4 + 12)) < 0.1)
    }

    @Test("a forward jump beyond 10 s is a discontinuity; a shorter hole stays a hole")
    func forwardJumps() {
        var mapping = TimestampContinuity()
        _ = feed(&mapping, from: 0, seconds: 2)
        let hole = feed(&mapping, from: 5, seconds: 1)
        #expect(mapping.discontinuities == 0)
        #expect(abs((hole.min() ?? 0) - 5) < 0.05)
        let jump = feed(&mapping, from: 1000, seconds: 1)
        #expect(mapping.discontinuities == 1)
        #expect((jump.min() ?? 0) < 6.1)
    }

    @Test("packets without timestamps pass through")
    func untimed() {
        var mapping = TimestampContinuity()
        let mapped = mapping.map(stream: 3, pts: nil, dts: nil, duration: nil)
        #expect(mapped.pts == nil && mapped.dts == nil)
    }
}
