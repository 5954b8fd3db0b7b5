import Testing

@testable import PlaybackModel

/// VLC 3.0's profile: its ABR (`VLCAbr`: NearOptimal with its integer truncation) and its start and resume
/// rule (`VLCStartRule`: es_out's clock), each on values worked out by hand from the source and the
/// measurement in docs/players/gstreamer-vlc-sources.md.
@Suite struct VLCProfileTests {
    /// The harness's HLS ladder (`Benchmarks/webplayers/make_media.py`'s master): 364k, 864k, 2064k.
    static let ladder = [364_000.0, 864_000, 2_064_000]

    static func context(segment: Int, buffer: Double = 0, rates: [Double] = ladder) -> PlayerAbrContext {
        PlayerAbrContext(bitRates: rates, segmentDuration: 2, buffer: buffer, segment: segment, segmentCount: 15)
    }

    @Test("the first segment on the lowest variant (estimate 0 before any download), every later one on the highest, never down, whatever the link")
    func lowestThenHighest() {
        for rate in [50_000.0, 1_000_000, 20_000_000] {
            var model = VLCAbr()
            #expect(model.choose(Self.context(segment: 0)).variant == 0)
            for segment in 1..<15 {
                // Each segment of the top variant (516 kB) arriving at `rate`, the buffer empty or full.
                let seconds = 516_000 * 8 / rate
                model.recordDownload(PlayerAbrDownload(variant: 2, bytes: 516_000, latency: 0, transfer: seconds))
                #expect(model.choose(Self.context(segment: segment, buffer: segment.isMultiple(of: 2) ? 0 : 29)).variant == 2)
            }
        }
    }

    @Test("the estimator: the first sample whole, then a VHF average (alpha 0.33 x spread / variation, 0.5 for equal samples) over 10 samples")
    func movingAverage() {
        var model = VLCAbr()
        model.push(1_000_000)
        #expect(model.estimate == 1_000_000)
        model.push(1_000_000)
        #expect(model.estimate == 1_000_000)
        // Samples 1M, 1M, 2M: spread 1M, variation 1M, alpha 0.33: 0.33 x 1M + 0.67 x 2M.
        model.push(2_000_000)
        #expect(abs(model.estimate - 1_670_000) < 1)
        // A sample from a download: 250 kB over 0.5 s latency + 1.5 s transfer = 1 Mbit/s.
        var measured = VLCAbr()
        measured.recordDownload(PlayerAbrDownload(variant: 0, bytes: 250_000, latency: 0.5, transfer: 1.5))
        #expect(measured.estimate == 1_000_000)
        // With an estimate, a first choice is the highest variant strictly below it.
        #expect(measured.choose(Self.context(segment: 0)).variant == 1)
    }

    @Test("start on pts_delay (1 s) ahead; resume at 1 s, then 0.3 s more per stall, at most 5 s more")
    func startAndResume() throws {
        let policy = VLCProfile().policy
        try policy.validate()
        #expect(policy.startThreshold == 1 && policy.stallLevel == 0 && policy.forwardTarget == 30)
        guard case .player(let start) = policy.keepUp else {
            Issue.record("VLC's keep-up is its own rule")
            return
        }
        var item = PlaybackItem(duration: .finite(30), policy: policy, loadedTimeRanges: TimeRanges([TimeRange(start: 0, end: 0.99)]))
        #expect(!start.rule.isLikelyToKeepUp(item, bufferedAhead: 0.99))
        #expect(start.rule.isLikelyToKeepUp(item, bufferedAhead: 1))
        item.isRebuffering = true
        for (stall, needed) in [(1, 1.0), (2, 1.3), (3, 1.6), (8, 3.1), (17, 5.8), (18, 6.0), (100, 6.0)] {
            item.stallsSinceSeek = stall
            #expect(!start.rule.isLikelyToKeepUp(item, bufferedAhead: needed - 0.01), "stall \(stall)")
            #expect(start.rule.isLikelyToKeepUp(item, bufferedAhead: needed + 1e-9), "stall \(stall)")
        }
        // A user's --resume-threshold moves the base the growth starts from.
        item.policy = policy.overriding(resumeThreshold: 3)
        item.stallsSinceSeek = 2
        #expect(!start.rule.isLikelyToKeepUp(item, bufferedAhead: 3.29) && start.rule.isLikelyToKeepUp(item, bufferedAhead: 3.3 + 1e-9))
    }

    @Test("--player vlc is the profile: its ABR, its start rule, its help line citing the source")
    func listed() {
        #expect(PlayerPreset(name: "VLC") == .vlc)
        #expect(PlayerPreset.vlc.abr?.name == "vlc")
        #expect(PlayerPreset.vlc.profile.source.contains("NearOptimalAdaptationLogic.cpp"))
        #expect(PlayerPreset.helpDiscussion.contains("vlc: VLC 3.0"))
    }
}
