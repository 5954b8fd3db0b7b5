import Testing

@testable import PlaybackModel

/// GStreamer 1.22's ABR (`GStreamerAbr`) and its profile (`GStreamerProfile`), each rule on values worked
/// out by hand from hlsdemux2's source (docs/players/gstreamer-vlc-sources.md).
@Suite struct GStreamerAbrTests {
    /// The harness's master (`Benchmarks/webplayers/make_media.py`): BANDWIDTH 364000, 864000, 2064000.
    static let ladder = [364_000.0, 864_000, 2_064_000]

    static func context(firstListed: Int = 0, rates: [Double] = ladder) -> PlayerAbrContext {
        PlayerAbrContext(bitRates: rates, firstListed: firstListed, segmentDuration: 2, buffer: 0)
    }

    /// A fragment of `bytes` taking `seconds` from its request to its last byte, `latency` of them before
    /// the first byte.
    static func fragment(_ bytes: Int64, seconds: Double, latency: Double = 0) -> PlayerAbrDownload {
        PlayerAbrDownload(variant: 0, bytes: bytes, latency: latency, transfer: seconds - latency)
    }

    @Test("the first fragment is the first-listed variant, even when it is not the lowest: there is no default estimate")
    func firstListed() {
        var model = GStreamerAbr()
        #expect(model.estimate == nil)
        #expect(model.choose(Self.context(firstListed: 2)).variant == 2)
        var lowest = GStreamerAbr()
        #expect(lowest.choose(Self.context(firstListed: 0)).variant == 0)
        var middle = GStreamerAbr()
        #expect(middle.choose(Self.context(firstListed: 1)).variant == 1)
    }

    @Test("a sample is bytes x 8 over request-to-last-byte, the wait for the first byte included")
    func sampleIncludesLatency() {
        var model = GStreamerAbr()
        // 500 kB: 1.5 s of transfer after 0.5 s of latency is 2 Mbit/s, not 2.67.
        model.recordDownload(Self.fragment(500_000, seconds: 2, latency: 0.5))
        #expect(model.estimate == 2_000_000)
    }

    @Test("the estimate is the lower of the mean of the last 3 samples and the last sample")
    func meanOfThreeOrLast() {
        var model = GStreamerAbr()
        // Samples 4, 1, 4 Mbit/s: mean 3, last 4: 3.
        for bits in [4_000_000.0, 1_000_000, 4_000_000] { model.recordDownload(Self.fragment(Int64(bits / 8), seconds: 1)) }
        #expect(model.estimate == 3_000_000)
        // Then 2 Mbit/s: the window is 1, 4, 2 (the first 4 left it), mean 2.33, last 2: 2.
        model.recordDownload(Self.fragment(250_000, seconds: 1))
        #expect(model.estimate == 2_000_000)
        // Then 8 Mbit/s: 4, 2, 8, mean 4.67 < 8: the mean.
        model.recordDownload(Self.fragment(1_000_000, seconds: 1))
        #expect(abs((model.estimate ?? 0) - 14_000_000.0 / 3) < 1e-6)
    }

    @Test("after every fragment the highest BANDWIDTH at most 0.8 x the estimate, up or down, else the lowest")
    func switchAtEightTenths() {
        // 2.58 Mbit/s x 0.8 = 2.064M: variant 2 exactly; 2.57 Mbit/s: 2.056M, variant 1.
        for (bits, expected) in [(2_580_000.0, 2), (2_570_000, 1), (1_080_000, 1), (1_079_000, 0), (100_000, 0)] {
            var model = GStreamerAbr()
            _ = model.choose(Self.context())
            model.recordDownload(Self.fragment(Int64(bits / 8), seconds: 1))
            #expect(model.choose(Self.context()).variant == expected, "\(bits) bit/s")
        }
        // No hysteresis: 5 Mbit/s goes up to 2, a 0.5 Mbit/s fragment takes it straight down to 0
        // (min(mean 2.75, last 0.5) x 0.8 = 0.4M < 864k).
        var model = GStreamerAbr()
        _ = model.choose(Self.context())
        model.recordDownload(Self.fragment(625_000, seconds: 1))
        #expect(model.choose(Self.context()).variant == 2)
        model.recordDownload(Self.fragment(62_500, seconds: 1))
        #expect(model.choose(Self.context()).variant == 0)
    }

    @Test("--abr-safety replaces the 0.8 target ratio")
    func safetyOverride() {
        var model = GStreamerAbr().overriding(safetyFactor: 0.95)
        _ = model.choose(Self.context())
        // 2.2 Mbit/s x 0.95 = 2.09M admits 2064k; x 0.8 = 1.76M would not.
        model.recordDownload(Self.fragment(275_000, seconds: 1))
        #expect(model.choose(Self.context()).variant == 2)
        #expect(model.parameters["target_ratio"] == 0.95)
        #expect(GStreamerAbr().overriding(safetyFactor: nil).targetRatio == 0.8)
    }

    @Test("the buffering threshold is 1.5 segment durations, capped at 10 s: 3 s for 2 s segments, the policy's start and resume")
    func lowWatermark() throws {
        #expect(GStreamerProfile.lowWatermark(averageSegmentDuration: 2) == 3)
        #expect(GStreamerProfile.lowWatermark(averageSegmentDuration: 4) == 6)
        #expect(GStreamerProfile.lowWatermark(averageSegmentDuration: 10) == 10)
        let policy = GStreamerProfile().policy
        #expect(policy.startThreshold == 3 && policy.resumeThreshold == 3)
        #expect(policy.forwardTarget == 30 && policy.stallLevel == 0 && policy.resumeGrowth == .fixed)
        try policy.validate()
    }

    @Test("the first fragment waits for the master and the first-listed media playlist over the link")
    func startDelayFetchesPlaylists() {
        let hints = PlayerPreset.ManifestHints(
            minBufferTime: nil, audioFrame: nil, masterPlaylistBytes: 12_500, mediaPlaylistBytes: [25_000, 50_000])
        // 1 Mbit/s, 50 ms latency: the master 0.05 + 0.1 s, the first media playlist 0.05 + 0.2 s.
        let network = NetworkModel(bitsPerSecond: 1_000_000, latency: 0.05)
        #expect(abs(GStreamerProfile().startDelay(hints: hints, network: network) - 0.4) < 1e-9)
        #expect(GStreamerProfile().startDelay(hints: nil, network: network) == 0)
    }
}
