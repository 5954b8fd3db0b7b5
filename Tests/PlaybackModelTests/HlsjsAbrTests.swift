import PlaybackModel
import Testing

/// hls.js's ABR model (`HlsjsAbr`), each decision worked out by hand from the rule its doc comment cites,
/// on the webplayers ladder: 364k, 864k, 2064k (300k/800k/2000k video + 64k audio), 2 s segments.
@Suite struct HlsjsAbrTests {
    let ladder = [364_000.0, 864_000, 2_064_000]

    func context(buffer: Double, firstListed: Int = 0) -> PlayerAbrContext {
        PlayerAbrContext(bitRates: ladder, firstListed: firstListed, segmentDuration: 2, buffer: buffer)
    }

    /// A model that has loaded one segment at `variant` measuring `bitsPerSecond` over 1 s, no latency, no
    /// parse time (the samples the link's).
    func measured(_ bitsPerSecond: Double, at variant: Int) -> HlsjsAbr {
        var model = HlsjsAbr()
        model.parseTimes = (0, 0)
        model.firstReadBytes = 0
        _ = model.choose(context(buffer: 0))
        model.recordDownload(
            PlayerAbrDownload(variant: variant, bytes: Int64(bitsPerSecond / 8), latency: 0, transfer: 1))
        return model
    }

    @Test("sample: the time to first byte (the latency and the first TCP segment's 1,448 bytes) is left out, as hls.js does")
    func firstReadLeftOut() {
        var model = HlsjsAbr()
        model.parseTimes = (0, 0)
        #expect(model.firstReadBytes == 1448)
        _ = model.choose(context(buffer: 0))
        // 375 000 B over 1 s after 50 ms of latency: the first 1 448 B took 3.86 ms, so hls.js times
        // 1 - 0.00386 s of the transfer: 3.0116 Mbit/s, not the link's 3.
        model.recordDownload(PlayerAbrDownload(variant: 0, bytes: 375_000, latency: 0.05, transfer: 1))
        let expected = 3_000_000 / (1 - 1448.0 / 375_000)
        #expect(abs(model.estimate(context(buffer: 0)) - expected) < 1, "\(model.estimate(context(buffer: 0)))")
        #expect(expected > 3_011_000 && expected < 3_012_000)
        // Without it (0), the sample is the link's.
        var linkOnly = HlsjsAbr()
        linkOnly.parseTimes = (0, 0)
        linkOnly.firstReadBytes = 0
        _ = linkOnly.choose(context(buffer: 0))
        linkOnly.recordDownload(PlayerAbrDownload(variant: 0, bytes: 375_000, latency: 0.05, transfer: 1))
        #expect(abs(linkOnly.estimate(context(buffer: 0)) - 3_000_000) < 1)
    }

    @Test("first choice: the highest variant at most the 500 kbit/s default estimate, the first listed one's rate when higher")
    func firstChoice() {
        var model = HlsjsAbr()
        // 500k default: 364k fits, 864k does not.
        #expect(model.choose(context(buffer: 0)).variant == 0)
        // 864k listed first raises the default to 864k (level-controller.ts 322-333): variant 1.
        var listedMiddle = HlsjsAbr()
        #expect(listedMiddle.choose(context(buffer: 0, firstListed: 1)).variant == 1)
        // Never below the lowest variant: a 600k-only ladder starts at it, not "none".
        var high = HlsjsAbr()
        let single = PlayerAbrContext(bitRates: [600_000, 1_200_000], segmentDuration: 2, buffer: 0)
        #expect(high.choose(single).variant == 0)
    }

    @Test("estimator: the lower of two bias-corrected EWMAs (half-lives 3 s and 9 s) of samples weighted by their seconds")
    func estimator() {
        var model = measured(2_000_000, at: 0)
        // One sample: both EWMAs are the sample (bias-corrected).
        #expect(abs(model.estimate(context(buffer: 0)) - 2_000_000) < 1)
        model.recordDownload(PlayerAbrDownload(variant: 0, bytes: 125_000, latency: 0, transfer: 1))
        // Fast, a = 0.5^(1/3): (1M + 2M a) / (1 + a) = 1.442_5.. Mbit/s; slow, a = 0.5^(1/9): 1.480_7..
        // Mbit/s; the estimate is the lower.
        let a = 0.793_700_525_984_1
        let fast = (1_000_000 + 2_000_000 * a) / (1 + a)
        #expect(abs(model.estimate(context(buffer: 0)) - fast) < 1)
        #expect(fast > 1_442_000 && fast < 1_443_000)
    }

    @Test("sample: up to the end of parsing, the first segment's parse time (the transmuxer's start) above the later ones'")
    func parseTimeInSample() {
        var model = HlsjsAbr()
        model.parseTimes = (first: 0.1, later: 0.01)
        model.firstReadBytes = 0
        _ = model.choose(context(buffer: 0))
        // 375 000 B in 0.9 s of transfer + 0.1 s of parsing: 3 Mbit/s, not the link's 3.33.
        model.recordDownload(PlayerAbrDownload(variant: 0, bytes: 375_000, latency: 0, transfer: 0.9))
        #expect(abs(model.estimate(context(buffer: 0)) - 3_000_000) < 1)
        // The second segment at the same rate: 0.99 s + 0.01 s, 3 Mbit/s too (0.1 s would make it 2.73).
        model.recordDownload(PlayerAbrDownload(variant: 0, bytes: 375_000, latency: 0, transfer: 0.99))
        #expect(abs(model.estimate(context(buffer: 0)) - 3_000_000) < 1)
        // So on the webplayers ladder after one 364k segment at 3 Mbit/s over 0.283 s, the 72 ms first parse
        // gives 2.39 Mbit/s: 0.7 x 2.43 < 2064k, 864k next; without it, 0.7 x 3M >= 2064k, 2064k next.
        var parsed = HlsjsAbr()
        parsed.firstReadBytes = 0
        _ = parsed.choose(context(buffer: 0))
        parsed.recordDownload(PlayerAbrDownload(variant: 0, bytes: 106_220, latency: 0, transfer: 0.283_253))
        #expect(parsed.choose(context(buffer: 2)).variant == 1)
        var linkOnly = HlsjsAbr()
        linkOnly.parseTimes = (0, 0)
        linkOnly.firstReadBytes = 0
        _ = linkOnly.choose(context(buffer: 0))
        linkOnly.recordDownload(PlayerAbrDownload(variant: 0, bytes: 106_220, latency: 0, transfer: 0.283_253))
        #expect(linkOnly.choose(context(buffer: 2)).variant == 2)
    }

    @Test("switch: up only within 0.7 of the estimate, down or level within 0.95, and a fetch shorter than the buffer")
    func switchRule() {
        // 2 Mbit/s after variant 0: 2064k needs 2.95 Mbit/s up (0.7); 864k fits (0.7 x 2M = 1.4M), fetched
        // in 0.005 + 1.728 / 1.4 = 1.24 s < 10 s.
        var up = measured(2_000_000, at: 0)
        #expect(up.choose(context(buffer: 10)).variant == 1)
        // The same estimate after variant 2: 0.95 x 2M = 1.9M < 2064k, so down to 864k.
        var down = measured(2_000_000, at: 2)
        #expect(down.choose(context(buffer: 10)).variant == 1)
        // 3 Mbit/s after variant 1: 0.7 x 3M = 2.1M >= 2064k, fetched in 0.005 + 4.128 / 2.1 = 1.97 s < 10 s.
        var rich = measured(3_000_000, at: 1)
        #expect(rich.choose(context(buffer: 10)).variant == 2)
        // With 1.5 s buffered that fetch is too long; 864k (0.005 + 1.728 / 2.85 = 0.61 s) is taken.
        var short = measured(3_000_000, at: 1)
        #expect(short.choose(context(buffer: 1.5)).variant == 1)
    }

    /// Variant 2's segment (516 000 bytes) 1.2 s into its download with 60 000 bytes arrived
    /// (400 kbit/s) and 1.5 s buffered.
    func slowDownload(variant: Int = 2, elapsed: Double = 1.2, buffer: Double = 1.5) -> PlayerAbrProgress {
        PlayerAbrProgress(
            context: context(buffer: buffer), variant: variant, arrivedBytes: 60_000 * elapsed / 1.2,
            totalBytes: 516_000, latency: 0, elapsed: elapsed)
    }

    @Test("abandonment: bytes left outlast the buffer, and the replacement would arrive sooner: drop to the lowest")
    func abandonment() {
        // 456 000 bytes left at 50 000 B/s = 9.12 s > 1.5 s buffered; 864k would take 0.005 + 1.728 / 0.4 =
        // 4.33 s, not under 1.5 s, so the loop ends at the lowest; 4.33 s < 9.12 s and < 20 s: drop.
        var model = measured(3_000_000, at: 1)
        #expect(model.abandonment(slowDownload())?.variant == 0)
        // Not before half the segment's duration (1 s) has passed.
        var early = measured(3_000_000, at: 1)
        #expect(early.abandonment(slowDownload(elapsed: 0.9)) == nil)
        // Not with two segments (4 s) buffered.
        var buffered = measured(3_000_000, at: 1)
        #expect(buffered.abandonment(slowDownload(buffer: 4)) == nil)
        // From variant 1 the search loop never runs (abr-controller.ts 275-297): never abandoned.
        var middle = measured(3_000_000, at: 1)
        let oneUp = PlayerAbrProgress(
            context: context(buffer: 1.5), variant: 1, arrivedBytes: 60_000, totalBytes: 216_000, latency: 0,
            elapsed: 1.2)
        #expect(middle.abandonment(oneUp) == nil)
    }

    @Test("--abr-safety replaces both factors")
    func safetyOverride() {
        // 3 Mbit/s after variant 1 with safety 0.5: 1.5M < 2064k, 864k fits.
        var model = measured(3_000_000, at: 1).overriding(safetyFactor: 0.5)
        #expect(model.choose(context(buffer: 10)).variant == 1)
        #expect(model.parameters["abr_band_width_up_factor"] == 0.5)
    }
}
