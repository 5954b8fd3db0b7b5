import Testing

@testable import PlaybackModel

/// dash.js 5.1.1's ABR (`DashjsAbr`), each rule on values worked out by hand from its source.
@Suite struct DashjsAbrTests {
    /// The harness's ladder (`Benchmarks/webplayers/make_media.py`'s MPD): 278k, 751k, 1878k.
    static let ladder = [277_685.0, 750_921, 1_877_921]

    static func context(buffer: Double, time: Double = 0, rates: [Double] = ladder) -> PlayerAbrContext {
        PlayerAbrContext(bitRates: rates, segmentDuration: 2, buffer: buffer, time: time)
    }

    /// A whole segment of `bytes` over `seconds` of transfer.
    static func download(_ bytes: Int64, seconds: Double, variant: Int = 1, time: Double = 0) -> PlayerAbrDownload {
        PlayerAbrDownload(variant: variant, bytes: bytes, latency: 0, transfer: seconds, time: time)
    }

    @Test("the first request goes out at the highest variant of at most 1000 kbit/s (DEFAULT_VIDEO_BITRATE), else the lowest")
    func firstChoice() {
        var model = DashjsAbr()
        #expect(model.choose(Self.context(buffer: 0)).variant == 1)
        var high = DashjsAbr()
        #expect(high.choose(Self.context(buffer: 0, rates: [1_500_000, 3_000_000])).variant == 0)
        var flat = DashjsAbr()
        #expect(flat.choose(Self.context(buffer: 0, rates: [300_000, 1_000_000, 2_000_000])).variant == 1)
    }

    @Test("the estimate is the lower of a 3 and an 8 EWMA weighted 0.0015 per ms, bias-corrected, in kbit/s")
    func estimator() {
        var model = DashjsAbr()
        #expect(model.estimate == nil)
        model.recordDownload(Self.download(500_000, seconds: 1))
        #expect(model.estimate == 4000)
        model.recordDownload(Self.download(125_000, seconds: 1))
        // fast: (0.2929 x 1000 + 0.7071 x 0.2929 x 4000) / (1 - 0.5) = 2242.6; slow: 2403.3; the lower, rounded.
        #expect(model.estimate == 2243)
    }

    @Test("the throughput rule waits for 0.3 s buffered, then takes the highest variant at most 0.9 x the estimate")
    func throughputRule() {
        var model = DashjsAbr()
        _ = model.choose(Self.context(buffer: 0))
        model.recordDownload(Self.download(500_000, seconds: 1))
        #expect(model.choose(Self.context(buffer: 0.3)).variant == 1)
        #expect(model.choose(Self.context(buffer: 1.9)).variant == 2)
        var slow = DashjsAbr()
        _ = slow.choose(Self.context(buffer: 0))
        // 2000 kbit/s x 0.9 = 1800 < 1878: variant 1.
        slow.recordDownload(Self.download(250_000, seconds: 1))
        #expect(slow.choose(Self.context(buffer: 1.9)).variant == 1)
    }

    @Test("after 2 segments the insufficient-buffer rule caps at 0.7 x estimate x buffer / segment duration")
    func insufficientBuffer() {
        var model = DashjsAbr()
        _ = model.choose(Self.context(buffer: 0))
        model.recordDownload(Self.download(500_000, seconds: 1))
        // One segment appended: the rule still ignores it, the throughput rule's 3600 kbit/s gives 2.
        #expect(model.choose(Self.context(buffer: 0.5)).variant == 2)
        model.recordDownload(Self.download(500_000, seconds: 1))
        // 4000 x 0.7 x 0.5 / 2 = 700 kbit/s: variant 0.
        #expect(model.choose(Self.context(buffer: 0.5)).variant == 0)
    }

    @Test("DYNAMIC: BOLA from 18 s buffered until below 9 s; BOLA starts on throughput, then by buffer level")
    func dynamicSwitching() {
        var model = DashjsAbr()
        _ = model.choose(Self.context(buffer: 0))
        model.recordDownload(Self.download(500_000, seconds: 1))
        model.recordDownload(Self.download(500_000, seconds: 1))
        #expect(model.choose(Self.context(buffer: 17.9)).variant == 2)
        // BOLA's first call: the safe throughput's variant.
        #expect(model.choose(Self.context(buffer: 18)).variant == 2)
        // At 10 s BOLA (Vp 4.185, gp 2.389) scores 0, 5.5e-6 and 4.3e-6: variant 1, where throughput says 2.
        #expect(model.choose(Self.context(buffer: 10)).variant == 1)
        // Below 9 s the throughput rule is back.
        #expect(model.choose(Self.context(buffer: 8.9)).variant == 2)
    }

    @Test("switch history: one drop among the last 8 choices holds the variant one below the one dropped from")
    func switchHistory() {
        var model = DashjsAbr()
        var chosen = [model.choose(Self.context(buffer: 0)).variant]
        model.recordDownload(Self.download(500_000, seconds: 1))
        model.recordDownload(Self.download(500_000, seconds: 1))
        chosen.append(model.choose(Self.context(buffer: 5)).variant)
        chosen.append(model.choose(Self.context(buffer: 0.5)).variant)
        for _ in 0..<7 { chosen.append(model.choose(Self.context(buffer: 5)).variant) }
        // The 9th choice sees 8 kept: 1 drop from variant 2 against 7 no-drops, 0.14 > 0.075.
        #expect(chosen == [1, 2, 0, 2, 2, 2, 2, 2, 2, 1])
    }

    @Test("abandonment: after 500 ms, a segment that would take 1.8 durations goes to the variant its rate sustains")
    func abandonment() {
        var model = DashjsAbr()
        _ = model.choose(Self.context(buffer: 0))
        // As dash.js did at 0.7 Mbit/s: 36,864 of 212,867 bytes in 0.9 s = 328 kbit/s, 5.2 s for the whole.
        let progress = PlayerAbrProgress(
            context: Self.context(buffer: 0, time: 1.2), variant: 1, arrivedBytes: 36_864, totalBytes: 212_867,
            latency: 0, elapsed: 0.9)
        #expect(model.abandonment(progress)?.variant == 0)
        var early = DashjsAbr()
        var young = progress
        young.elapsed = 0.5
        #expect(early.abandonment(young) == nil)
        var full = DashjsAbr()
        var buffered = progress
        buffered.context.buffer = 18.5
        #expect(full.abandonment(buffered) == nil)
        // The abandonment holds up-switches for 10 s.
        model.recordDownload(Self.download(500_000, seconds: 1, time: 2))
        model.recordDownload(Self.download(500_000, seconds: 1, time: 3))
        #expect(model.choose(Self.context(buffer: 4, time: 11.1)).variant == 0)
        #expect(model.choose(Self.context(buffer: 4, time: 11.3)).variant == 2)
    }
}
