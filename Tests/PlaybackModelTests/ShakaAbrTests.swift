import Testing

@testable import PlaybackModel

/// Shaka Player 3.1's ABR (`ShakaAbr`), each rule on values worked out by hand from its source.
@Suite struct ShakaAbrTests {
    /// The harness's ladder (`Benchmarks/webplayers/make_media.py`'s MPD): 278k, 751k, 1878k.
    static let ladder = [277_685.0, 750_921, 1_877_921]

    static func context(time: Double = 0, rates: [Double] = ladder) -> PlayerAbrContext {
        PlayerAbrContext(bitRates: rates, segmentDuration: 2, buffer: 0, time: time)
    }

    /// A whole segment of `bytes` arriving evenly from `start` to `end`, no latency.
    static func download(_ bytes: Int64, from start: Double, to end: Double) -> PlayerAbrDownload {
        PlayerAbrDownload(variant: 1, bytes: bytes, latency: 0, transfer: end - start, time: end)
    }

    @Test("the first choice: the last variant whose range (own rate / 0.95 to next / 0.85) holds the default estimate")
    func firstChoice() {
        var model = ShakaAbr()
        // 1.5 Mbit/s (Chromium's downlink): 751k / 0.95 = 790k <= 1.5M <= 1878k / 0.85 = 2209k.
        #expect(model.choose(Self.context()).variant == 1)
        var configured = ShakaAbr()
        configured.defaultEstimate = 1_000_000
        #expect(configured.choose(Self.context()).variant == 1)
        var fast = ShakaAbr()
        // 2.1 Mbit/s is in both variant 1's range (to 2209k) and variant 2's (from 1977k): the last wins.
        fast.defaultEstimate = 2_100_000
        #expect(fast.choose(Self.context()).variant == 2)
        var slow = ShakaAbr()
        // 0.2 Mbit/s is in no range: the lowest.
        slow.defaultEstimate = 200_000
        #expect(slow.choose(Self.context()).variant == 0)
    }

    @Test("a progress sample under 16 kB is dropped: below 1.28 Mbit/s the estimate never leaves the default")
    func minimumSampleSize() {
        var model = ShakaAbr()
        _ = model.choose(Self.context())
        // 80 kB in 2 s = 320 kbit/s: 4 kB per 100 ms.
        for segment in 0..<10 {
            let start = Double(segment) * 2
            model.recordDownload(Self.download(80_000, from: start, to: start + 2))
        }
        #expect(model.estimate == 1_500_000)
        #expect(model.choose(Self.context(time: 20)).variant == 1)
    }

    @Test("the first good estimate (128 kB sampled) switches at once; later switches wait 8 s from the last choice")
    func switchInterval() {
        var model = ShakaAbr()
        _ = model.choose(Self.context())
        // 4 Mbit/s: 50 kB per 100 ms; 150 kB sampled at 0.3 s, the estimate 4 Mbit/s: variant 2 then.
        model.recordDownload(Self.download(500_000, from: 0, to: 1))
        #expect(abs(model.estimate - 4_000_000) < 1)
        #expect(model.choose(Self.context(time: 1)).variant == 2)
        // 1.6 Mbit/s for 4 s: 20 kB samples; fast EWMA (1.1716 x 0.25 + 1.6 x 0.75) / (1 - 2^-2.5) = 1.8135
        // Mbit/s, slow 1.957: the lower is in variant 1's range only, but 8 s have not passed since 0.3 s.
        model.recordDownload(Self.download(800_000, from: 1, to: 5))
        #expect(abs(model.estimate - 1_813_500) < 1_000)
        #expect(model.choose(Self.context(time: 5)).variant == 2)
        model.recordDownload(Self.download(200_000, from: 8, to: 9))
        #expect(model.choose(Self.context(time: 9)).variant == 1)
    }

    @Test("a link slowing within a segment: the samples follow the bytes as they came, not spread evenly")
    func arrivalCurve() {
        // 475 kB in 4 s: 250 kB in the first second (2 Mbit/s, 25 kB per 100 ms), 225 kB in the next three
        // (0.6 Mbit/s, 7.5 kB per 100 ms). Spread evenly (0.95 Mbit/s, 11.9 kB per 100 ms) every sample is
        // under 16 kB and the estimate stays the default; as they came, the first ten are 2 Mbit/s samples,
        // the estimate is good at 0.6 s (150 kB sampled) and chooses variant 2 (2 Mbit/s >= 1878k / 0.95).
        var curve = Self.download(475_000, from: 0, to: 4)
        curve.arrival = [.init(time: 0, bytes: 0), .init(time: 1, bytes: 250_000), .init(time: 4, bytes: 475_000)]
        var model = ShakaAbr()
        _ = model.choose(Self.context())
        model.recordDownload(curve)
        #expect(abs(model.estimate - 2_000_000) < 1)
        #expect(model.choose(Self.context(time: 4)).variant == 2)
        var even = ShakaAbr()
        _ = even.choose(Self.context())
        even.recordDownload(Self.download(475_000, from: 0, to: 4))
        #expect(even.estimate == 1_500_000)
        #expect(even.choose(Self.context(time: 4)).variant == 1)
    }

    @Test("Shaka starts and resumes at max(rebufferingGoal 2 s, MPD minBufferTime), plus one AAC frame with audio, and loads at least that far ahead")
    func startRule() {
        let frame = 1024 / 48000.0
        let hinted = PlayerPreset.shaka.policy(for: .init(minBufferTime: 4, audioFrame: frame))
        #expect(hinted.startThreshold == 4 + frame && hinted.resumeThreshold == 4 + frame)
        #expect(PlayerPreset.shaka.policy(for: .init(minBufferTime: 1.5, audioFrame: nil)).startThreshold == 2)
        #expect(PlayerPreset.shaka.policy(for: nil).startThreshold == 2)
        // Its buffering goal is max(minBufferTime, rebufferingGoal, bufferingGoal 10 s): raised with a
        // minBufferTime above 10 s, never below the resume threshold.
        #expect(hinted.forwardTarget == 10)
        let long = PlayerPreset.shaka.policy(for: .init(minBufferTime: 12, audioFrame: frame))
        #expect(long.startThreshold == 12 + frame && long.forwardTarget == 12 + frame && long.stallLevel == 0.5)
        #expect(throws: Never.self) { try long.validate() }
        #expect(PlayerPreset.dashjs.policy(for: .init(minBufferTime: 4, audioFrame: frame)).startThreshold == 0.2)
        #expect(PlayerPreset.ManifestHints.aacFrame(codecs: "mp4a.40.2", samplingRate: 48000) == frame)
        #expect(PlayerPreset.ManifestHints.aacFrame(codecs: "opus", samplingRate: 48000) == nil)
        #expect(PlayerPreset.ManifestHints.aacFrame(codecs: "mp4a.40.2", samplingRate: nil) == nil)
    }

    @Test("Shaka never abandons a request")
    func noAbandonment() {
        #expect(ShakaAbr().abandonCheckInterval == nil)
    }
}
