#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// hls.js's ABR as the build in `../shared/webplayers/hls.min.js` runs it (nyanmisaka/hls.js at
/// 2ca771e97a15d8078a3850c4c4cf225f497dcaa7, September 2023, a fork of video-dev/hls.js 1.5-dev). Paths and
/// lines below are in that commit's `src/`.
///
/// - First choice (`abr-controller.ts` 420-440 `firstAutoLevel`, `level-controller.ts` 473-483): the
///   highest variant whose declared bit rate is at most the default estimate, `abrEwmaDefaultEstimate`
///   500 kbit/s (`config.ts` 379), raised to the bit rate of the variant the manifest lists first when
///   that is higher, up to `abrEwmaDefaultEstimateMax` 5 Mbit/s (`level-controller.ts` 322-333), and never
///   below the lowest variant (`findBestLevel`, 633-638). No bit-rate test: `startLevel` is never -1.
/// - Estimator (`ewma-bandwidth-estimator.ts`, `ewma.ts`): two EWMAs of bits per second weighted by the
///   seconds a sample took, half-lives 3 s and 9 s (`abrEwmaFastVoD`, `abrEwmaSlowVoD`, `config.ts`
///   377-378), bias-corrected, the estimate the lower of the two; a sample is a segment's bytes over the
///   time from its request to the end of its parsing less the shorter of its time to first byte and the
///   TTFB estimate, at least 50 ms (`abr-controller.ts` 392-400: `stats.parsing.end`, set when the
///   transmuxer hands the segment back, `base-stream-controller.ts` 856-874). The parse time is not in
///   the media: it is Chromium's, measured in the harness's timelines (`parseTimes`). The TTFB estimate
///   is an EWMA (half-life 9) of `max(ttfb, 5 ms)` weighted `sqrt(2) exp(-s^2 / 2)`, 100 ms before any
///   sample.
/// - Switch (`getNextABRAutoLevel` 501-592, `findBestLevel` 600-800): from the highest variant down, the
///   first whose declared bit rate is at most the estimate times 0.95 (`abrBandWidthFactor`) or, above
///   the last loaded variant, 0.7 (`abrBandWidthUpFactor`, `config.ts` 381-382), and whose segment fetch at
///   that rate (plus the TTFB estimate) is shorter than the buffer; failing that, one whose fetch is
///   shorter than the buffer plus min(segment, `maxStarvationDelay` 4 s); failing that, the lowest.
/// - Abandonment (`_abandonRulesCheck` 189-335, every 100 ms of a download): a segment above the lowest
///   two, loading for more than half its duration, with less than two segments buffered, whose bytes left
///   at this request's rate would outlast the buffer, is dropped for the highest lower variant whose
///   segment would arrive before the buffer runs dry at that rate, else the lowest; not when the
///   replacement would take longer than finishing or more than 10 segment durations.
public struct HlsjsAbr: PlayerAbrModel {
    /// `abrEwmaDefaultEstimate`, bits per second (`config.ts` 379).
    public var defaultEstimate = 500_000.0
    /// `abrEwmaDefaultEstimateMax`, bits per second (`config.ts` 380).
    public var defaultEstimateMax = 5_000_000.0
    /// `abrEwmaFastVoD` and `abrEwmaSlowVoD`, seconds of samples (`config.ts` 377-378).
    public static let fastHalfLife = 3.0, slowHalfLife = 9.0
    /// `abrBandWidthFactor`: the share of the estimate a variant at or below the last one may use.
    public var bandwidthFactor = 0.95
    /// `abrBandWidthUpFactor`: the share of the estimate a higher variant may use.
    public var bandwidthUpFactor = 0.7
    /// `maxStarvationDelay`, seconds of stall a choice may risk when none avoids one (`config.ts` 384).
    public var maxStarvationDelay = 4.0
    /// The abandonment check's period, seconds (`abr-controller.ts` 138, `setInterval(..., 100)`).
    public static let checkInterval = 0.1
    /// Seconds from a segment's last byte to the end of its parsing (transmuxing TS to MP4 in hls.js's
    /// worker), which each bandwidth sample includes: the first segment's, whose transmuxer and worker
    /// are made when it arrives (`stream-controller.ts` 721-728), and every later one's. Measured, not
    /// hls.js's constants: the medians of `parsed - loading[2]` in the `hls.fragBuffered` records of
    /// `Benchmarks/webplayers.sh`'s hls.js runs in headless Chromium on a shared 2-core machine
    /// (Benchmarks/README.md, "hls.js's parse time in its samples"). 0 leaves the samples the link's.
    public var parseTimes = (first: 0.072, later: 0.0044)
    /// Bytes of a response in before Chromium reports its first byte: one TCP segment's payload (1,448
    /// bytes: a 1,500-byte MTU less IP and TCP headers with timestamps). hls.js's time to first byte
    /// (`stats.loading.first`, set at the first progress) includes their time on the link, and its
    /// bandwidth sample leaves that time out (`abr-controller.ts` 392-400), so a sample is a little above
    /// the link's rate: 0.6 % for a 0.6 s segment at 3 Mbit/s. 0 reports the first byte as its latency ends.
    public var firstReadBytes = 1448.0
    /// `EwmaBandWidthEstimator`'s defaults: TTFB before any sample (ms), the least sample (ms), the
    /// weight that makes an estimate (`ewma-bandwidth-estimator.ts` 24-28).
    static let defaultTTFB = 100.0, minimumDelay = 50.0, minimumWeight = 0.001

    private var fast = HalfLifeEwma(halfLife: fastHalfLife), slow = HalfLifeEwma(halfLife: slowHalfLife)
    /// The TTFB EWMA, with the slow half-life (`ewma-bandwidth-estimator.ts` 32).
    private var ttfb = HalfLifeEwma(halfLife: slowHalfLife)
    /// `lastLoadedFragLevel`: the variant of the last segment that arrived whole.
    private var lastLoaded: Int?
    /// `fragCurrent.duration`: the last segment requested (0 before any).
    private var currentDuration = 0.0
    /// The variant of the last request (`hls.loadLevel`).
    private var loadLevel: Int?
    /// Whether a segment was parsed yet (the transmuxer exists).
    private var parsedOne = false

    /// hls.js's defaults.
    public init() {}

    /// `hlsjs`.
    public var name: String { "hlsjs" }

    /// The configuration values the model uses.
    public var parameters: [String: Double] {
        [
            "abr_ewma_default_estimate": defaultEstimate, "abr_ewma_default_estimate_max": defaultEstimateMax,
            "abr_ewma_fast_vod": Self.fastHalfLife, "abr_ewma_slow_vod": Self.slowHalfLife,
            "abr_band_width_factor": bandwidthFactor, "abr_band_width_up_factor": bandwidthUpFactor,
            "max_starvation_delay": maxStarvationDelay, "abandon_check_interval": Self.checkInterval,
            "parse_time_first": parseTimes.first, "parse_time": parseTimes.later, "first_read_bytes": firstReadBytes,
        ]
    }

    /// Every 100 ms.
    public var abandonCheckInterval: Double? { Self.checkInterval }

    /// `--abr-safety` replaces both factors.
    public func overriding(safetyFactor: Double?) -> HlsjsAbr {
        guard let safetyFactor else { return self }
        var copy = self
        copy.bandwidthFactor = safetyFactor
        copy.bandwidthUpFactor = safetyFactor
        return copy
    }

    /// The bandwidth estimate, bits per second: the lower EWMA once a sample came, else the default
    /// (raised to the first listed variant's bit rate, up to the cap).
    public func estimate(_ context: PlayerAbrContext) -> Double {
        if fast.totalWeight >= Self.minimumWeight { return min(fast.estimate, slow.estimate) }
        let first = context.bitRates.indices.contains(context.firstListed) ? context.bitRates[context.firstListed] : 0
        return max(defaultEstimate, min(first, defaultEstimateMax))
    }

    /// The TTFB estimate, milliseconds.
    public var ttfbEstimate: Double { ttfb.totalWeight >= Self.minimumWeight ? ttfb.estimate : Self.defaultTTFB }

    /// `firstAutoLevel` before any segment arrived, else `getNextABRAutoLevel` (after an abandonment the
    /// engine requests the segment again at the level `abandonment` returned, without asking).
    public mutating func choose(_ context: PlayerAbrContext) -> AbrDecision {
        let bandwidth = estimate(context)
        let chosen: Int
        let why: String
        if lastLoaded == nil {
            // firstAutoLevel: no buffer, maxStarvationDelay of slack, factors 1 (abr-controller.ts 420-432).
            let lowest = context.bitRates.first ?? 0
            chosen = bestLevel(context, bandwidth: max(bandwidth, lowest), starvation: 0, slack: maxStarvationDelay, factors: (1, 1)) ?? 0
            why = "hls.js first choice: estimate \(rate(bandwidth))"
        } else {
            chosen = nextLevel(context, bandwidth: bandwidth)
            why = "hls.js: estimate \(rate(bandwidth)), buffer \(seconds(context.buffer))"
        }
        loadLevel = chosen
        currentDuration = context.segmentDuration
        return AbrDecision(variant: chosen, reason: why)
    }

    /// `onFragLoaded` and `onFragBuffered` (abr-controller.ts 337-407): a TTFB sample and a bandwidth
    /// sample up to the end of the segment's parsing; the variant becomes the base of up-switches.
    public mutating func recordDownload(_ download: PlayerAbrDownload) {
        // An abandoned request was sampled when it was dropped (`_abandonRulesCheck` 304-313).
        guard !download.abandoned, download.bytes > 0 else { return }
        // The first read is the first `firstReadBytes` of the transfer, at its average rate.
        let firstRead = download.transfer * min(1, firstReadBytes / Double(download.bytes))
        let ttfbMs = (download.latency + firstRead) * 1000
        sampleTTFB(ttfbMs)
        let parseMs = (parsedOne ? parseTimes.later : parseTimes.first) * 1000
        parsedOne = true
        let processing = (download.latency + download.transfer) * 1000 + parseMs - min(ttfbMs, ttfbEstimate)
        sample(milliseconds: processing, bytes: Double(download.bytes))
        lastLoaded = download.variant
    }

    /// `_abandonRulesCheck` (abr-controller.ts 189-335); the segment then goes out again at
    /// `nextAutoLevel`, the lower of the level found and a fresh choice with the new sample.
    public mutating func abandonment(_ progress: PlayerAbrProgress) -> AbrDecision? {
        let context = progress.context
        let duration = context.segmentDuration
        let level = progress.variant
        guard level > 0, progress.playing, progress.arrivedBytes < progress.totalBytes else { return nil }
        let ttfbMs = progress.latency * 1000
        let loadingMs = ttfbMs + progress.elapsed * 1000
        guard loadingMs > max(ttfbEstimate, 1000 * duration / 2) else { return nil }
        let buffer = context.buffer
        guard buffer < 2 * duration else { return nil }
        let bandwidth = estimate(context)
        let loaded = progress.arrivedBytes
        let firstByte = loaded > 0
        var streamingMs = firstByte ? loadingMs - ttfbMs : loadingMs
        if streamingMs < 1 && firstByte { streamingMs = min(loadingMs, loaded * 8 / bandwidth) }
        let loadRate = firstByte && streamingMs > 0 ? loaded * 1000 / streamingMs : 0
        let left =
            loadRate > 0 ? (progress.totalBytes - loaded) / loadRate : progress.totalBytes * 8 / bandwidth + ttfbEstimate / 1000
        guard left > buffer else { return nil }
        let rateBits = loadRate > 0 ? loadRate * 8 : bandwidth
        var replacementDelay = Double.infinity
        var next = level - 1
        while next > 0 {
            replacementDelay = ttfbEstimate / 1000 + duration * context.bitRates[next] / rateBits
            if replacementDelay < buffer { break }
            next -= 1
        }
        guard replacementDelay < left, replacementDelay <= duration * 10 else { return nil }
        if firstByte { sample(milliseconds: loadingMs - min(ttfbEstimate, ttfbMs), bytes: loaded) } else { sampleTTFB(loadingMs) }
        // The request again goes out at nextAutoLevel: the lower of the forced level and a fresh choice.
        let fresh = nextLevel(context, bandwidth: estimate(context))
        let variant = min(next, fresh)
        loadLevel = variant
        return AbrDecision(
            variant: variant,
            reason: "hls.js abandoned: \(seconds(left)) left at \(rate(rateBits)) > \(seconds(buffer)) buffered")
    }

    /// `getNextABRAutoLevel` (abr-controller.ts 501-592).
    private func nextLevel(_ context: PlayerAbrContext, bandwidth: Double) -> Int {
        let buffer = context.buffer
        let factors = (bandwidthFactor, bandwidthUpFactor)
        if buffer > 0, let best = bestLevel(context, bandwidth: bandwidth, starvation: buffer, slack: 0, factors: factors) {
            return best
        }
        let slack = currentDuration > 0 ? min(currentDuration, maxStarvationDelay) : maxStarvationDelay
        if let best = bestLevel(context, bandwidth: bandwidth, starvation: buffer, slack: slack, factors: factors) {
            return best
        }
        let current = loadLevel ?? 0
        return (context.bitRates.first ?? 0) < context.bitRates[min(current, context.bitRates.count - 1)] ? 0 : current
    }

    /// `findBestLevel` (abr-controller.ts 600-800) for one codec and no errors: the highest variant whose
    /// bit rate fits the estimate times its factor and whose fetch ends within `starvation + slack`.
    private func bestLevel(
        _ context: PlayerAbrContext, bandwidth: Double, starvation: Double, slack: Double, factors: (Double, Double)
    ) -> Int? {
        let base = lastLoaded ?? context.firstListed
        let ttfbSeconds = ttfbEstimate / 1000
        for index in context.bitRates.indices.reversed() {
            let adjusted = (index > base ? factors.1 : factors.0) * bandwidth
            let bitRate = context.bitRates[index]
            // Before any segment the level's duration is unknown (`avgDuration` 0): the fetch is the TTFB.
            let fetch = ttfbSeconds + bitRate * currentDuration / adjusted
            if adjusted >= bitRate, fetch <= ttfbSeconds || !fetch.isFinite || fetch < starvation + slack {
                return index
            }
        }
        return nil
    }

    private mutating func sample(milliseconds: Double, bytes: Double) {
        let seconds = max(milliseconds, Self.minimumDelay) / 1000
        let bitsPerSecond = bytes * 8 / seconds
        fast.sample(weight: seconds, value: bitsPerSecond)
        slow.sample(weight: seconds, value: bitsPerSecond)
    }

    private mutating func sampleTTFB(_ milliseconds: Double) {
        let seconds = milliseconds / 1000
        ttfb.sample(weight: 2.0.squareRoot() * exp(-seconds * seconds / 2), value: max(milliseconds, 5))
    }

    private func rate(_ bitsPerSecond: Double) -> String { BitRate(bitsPerSecond: bitsPerSecond.rounded()).description }
    private func seconds(_ value: Double) -> String { Seconds((value * 1000).rounded() / 1000).description }
}
