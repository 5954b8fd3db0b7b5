#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// dash.js 5.1.1's ABR as the build in `../shared/webplayers/dash.all.min.js` runs it (Dash-Industry-Forum/
/// dash.js at af3cef033762bf78c256d89c6c0024908337991a). Paths and lines below are in that commit's `src/`.
///
/// - First choice (`streaming/controllers/AbrController.js` 654-679, 224-252): no initial bit rate set, none
///   saved and no throughput measured yet, so `DEFAULT_VIDEO_BITRATE` 1000 kbit/s (line 46): the highest
///   variant whose declared bit rate is at most that, else the lowest.
/// - Estimator (`streaming/models/ThroughputModel.js` 81-132, 188-227, 275-288;
///   `streaming/controllers/ThroughputController.js` 112-172, 365-376): `averageCalculationMode` EWMA
///   (`core/Settings.js` 1380): per segment, kbit/s over the transfer (the Resource Timing API's
///   `responseEnd - responseStart`, latency apart: `useDeadTimeLatency`, 1387), weighted
///   `0.0015 x milliseconds` (`weightDownloadTimeMultiplicationFactor`, 1403) into a fast (3) and a slow (8)
///   EWMA (1399-1400), bias-corrected, the estimate the lower one, rounded to kbit/s.
/// - Switch, once per segment request (`streaming/controllers/ScheduleController.js` 141-157,
///   `AbrController.js` 687-723, `rules/abr/ABRRulesCollection.js` 192-253): the lowest of the active rules'
///   choices, all at the default priority; an up-switch only while no abandonment holds (10 s after one,
///   `abandonLoadTimeout`, Settings.js 1143; AbrController.js 595-621):
///   - ThroughputRule (`rules/abr/ThroughputRule.js` 52-91), once the buffer has passed `stallThreshold`
///     0.3 s (`BufferController.js` 904-917): the highest variant at most 0.9 (`bandwidthSafetyFactor`,
///     Settings.js 1388) x the estimate;
///   - BolaRule instead while DYNAMIC is on its BOLA side (`AbrController.js` 925-960): on once the buffer
///     is at least `bufferTimeDefault` 18 s (Settings.js 1206), off below half that; BOLA's first call
///     picks by throughput, later ones by `(Vp (u - 1 + gp) - buffer) / bitrate` with dash.js's `Vp`, `gp`
///     (`rules/abr/BolaRule.js` 249-266, 308-320, 478-542), an up-switch capped as BOLA-O does;
///   - InsufficientBufferRule (`rules/abr/InsufficientBufferRule.js` 71-143), after the first 2 segments
///     (`segmentIgnoreCount`): the lowest variant when the buffer is empty, else the highest at most
///     0.7 x estimate x buffer / segment duration;
///   - SwitchHistoryRule (`rules/abr/SwitchHistoryRule.js` 16-49, `rules/SwitchRequestHistory.js`): over the
///     last 8 choices, once they number 8 with drops / no-drops above 0.075, one below a variant that was
///     dropped from.
/// - Abandonment (`rules/abr/AbandonRequestsRule.js` 60-130): with at most 18 s buffered, after 500 ms of
///   a download above the lowest variant, when its bytes at this request's rate would take at least 1.8
///   segment durations: the highest variant at most that rate, if its whole segment is smaller than what
///   is left.
///
/// - Fast switch (`fastSwitchLevel`): an up-switch replaces buffered segments from the playhead's on.
///
/// Not modelled: BOLA's placeholder buffer and its delays (BOLA is on only above 18 s buffered), and the
/// 30 s buffer target at the top variant (the preset's forward target is 18 s); docs/model.md says what
/// they change.
public struct DashjsAbr: PlayerAbrModel {
    /// `DEFAULT_VIDEO_BITRATE`, kbit/s (`AbrController.js` 46).
    public static let defaultVideoBitrate = 1000.0
    /// `bandwidthSafetyFactor` (Settings.js 1388).
    public var safetyFactor = 0.9
    /// `throughputFastHalfLifeSeconds`, `throughputSlowHalfLifeSeconds` (Settings.js 1399-1400).
    public static let fastHalfLife = 3.0, slowHalfLife = 8.0
    /// `weightDownloadTimeMultiplicationFactor`, per millisecond of transfer (Settings.js 1403).
    public static let weightPerMillisecond = 0.0015
    /// `stallThreshold`, seconds (Settings.js 1208).
    public static let stallThreshold = 0.3
    /// InsufficientBufferRule's `throughputSafetyFactor` and `segmentIgnoreCount` (Settings.js 1341-1342).
    public static let insufficientBufferSafety = 0.7, segmentIgnoreCount = 2
    /// SwitchHistoryRule's `sampleSize` and `switchPercentageThreshold` (Settings.js 1348-1349).
    public static let historySize = 8, switchPercentageThreshold = 0.075
    /// AbandonRequestsRule's `abandonDurationMultiplier` and `minSegmentDownloadTimeThresholdInMs`
    /// (Settings.js 1364-1365), and `abandonLoadTimeout` (1143), seconds.
    public static let abandonDurationMultiplier = 1.8, abandonAfter = 0.5, abandonHold = 10.0
    /// The period of XHR progress events, seconds.
    public static let progressInterval = 0.05
    /// `bufferTimeDefault` (Settings.js 1206): DYNAMIC's switch-on level (and half of it, off), BOLA's
    /// buffer time and the abandonment rule's ceiling.
    public static let bufferTimeDefault = 18.0
    /// BOLA's `MINIMUM_BUFFER_S` and `MINIMUM_BUFFER_PER_BITRATE_LEVEL_S` (`BolaRule.js` 54-55).
    static let bolaMinimumBuffer = 10.0, bolaBufferPerLevel = 2.0

    /// The throughput EWMA (`ThroughputModel.js` 275-288), kbit/s.
    private var fast = HalfLifeEwma(halfLife: fastHalfLife), slow = HalfLifeEwma(halfLife: slowHalfLife)
    /// The variant of the last request (`currentRepresentation`), `nil` before the first.
    private var current: Int?
    /// `BUFFER_LOADED` (true) or `BUFFER_EMPTY` (false); `nil` before the buffer first passed 0.3 s.
    private var bufferLoaded: Bool?
    /// Segments appended so far (the InsufficientBufferRule waits for 2).
    private var appended = 0
    /// DYNAMIC's side (`shouldUseBolaRuleByMediaType`), and whether BOLA has chosen before (its STARTUP).
    private var usingBola = false, bolaStarted = false
    /// The last choices (`SwitchRequestHistory`): the variant asked from, and whether it was a drop.
    private var history: [(variant: Int, drop: Bool)] = []
    /// Session time until which an abandonment holds up-switches.
    private var heldUntil = -Double.infinity

    /// The model with dash.js's defaults.
    public init() {}

    /// `dashjs`.
    public var name: String { "dashjs" }

    /// The values reports show.
    public var parameters: [String: Double] {
        [
            "default_bitrate": Self.defaultVideoBitrate * 1000, "safety_factor": safetyFactor,
            "ewma_fast_half_life": Self.fastHalfLife, "ewma_slow_half_life": Self.slowHalfLife,
            "dynamic_switch_on": Self.bufferTimeDefault, "dynamic_switch_off": Self.bufferTimeDefault / 2,
            "abandon_duration_multiplier": Self.abandonDurationMultiplier,
        ]
    }

    /// dash.js judges its first request too (it starts at 1000 kbit/s, not the lowest variant).
    public var judgesFirstRequest: Bool { true }

    /// The fast switch, on by default (`fastSwitchEnabled` null, `core/Settings.js` 1198, and no low-latency
    /// mode: `streaming/models/MediaPlayerModel.js` 267-273): after an up-switch the next request is for the
    /// segment at the playhead + `safeBufferLevel` (`streaming/StreamProcessor.js` 934-966, 968-978), when
    /// the executed request there (`models/FragmentModel.js` 221-234) was of a lower bandwidth and the buffer
    /// holds at least that much; the ones after it follow at the new variant, replacing the buffered ones.
    /// `safeBufferLevel` is `1.5 x fragmentDuration` (line 937), but the new representation comes from the
    /// AbrController's list (`AbrController.js` 279-300: `DashAdapter.getVoRepresentations`, a
    /// `new Representation()` per call, `dash/models/DashManifestModel.js` 794) whose `fragmentDuration` is
    /// never set past the constructor's `null` (`dash/vo/Representation.js` 55; only the
    /// RepresentationController's own copies get it, `RepresentationController.js` 177), and `isNaN(null)`
    /// is false, so the level is `1.5 x null` = 0: the segment holding the playhead. Measured in the
    /// harness: at 5 Mbit/s segment 1 was fetched again at 1878k with 2 s buffered (a 3 s level would not
    /// allow it), and at 2.5 Mbit/s the replacement began with the segment holding the playhead (12.33 s).
    public var fastSwitchLevel: Double? { 0 }

    /// A download is judged at every XHR progress event, which browsers fire every 50 ms (XMLHttpRequest
    /// standard, "fire a progress event ... every 50ms"); the rule acts once 500 ms have passed.
    public var abandonCheckInterval: Double? { Self.progressInterval }

    /// The estimate, kbit/s rounded as `getAverageThroughput` does, `nil` before any sample.
    public var estimate: Double? {
        guard fast.totalWeight > 0 else { return nil }
        return min(fast.estimate, slow.estimate).rounded()
    }

    /// `getOptimalRepresentationForBitrate`: the highest variant whose declared kbit/s is at most
    /// `kilobits`, the lowest when none is or `kilobits` is not positive.
    static func optimal(_ bitRates: [Double], kilobits: Double) -> Int {
        guard kilobits > 0 else { return 0 }
        return bitRates.lastIndex { $0 / 1000 <= kilobits } ?? 0
    }

    public mutating func choose(_ context: PlayerAbrContext) -> AbrDecision {
        let rates = context.bitRates
        let buffer = context.buffer
        // DYNAMIC follows the buffer level (AbrController.js 940-948), with hysteresis.
        usingBola = buffer >= (usingBola ? Self.bufferTimeDefault / 2 : Self.bufferTimeDefault)
        if buffer > Self.stallThreshold {
            bufferLoaded = true
        } else if bufferLoaded != nil {
            bufferLoaded = false
        }
        guard let current else {
            let first = Self.optimal(rates, kilobits: Self.defaultVideoBitrate)
            self.current = first
            return AbrDecision(variant: first, reason: "dash.js: default bit rate 1000 kbit/s")
        }
        var choices: [(variant: Int, rule: String)] = []
        let estimate = self.estimate
        if usingBola {
            if let bola = bolaChoice(rates, buffer: buffer, current: current) { choices.append((bola, "bola")) }
        } else if let estimate, bufferLoaded == true, context.time >= heldUntil {
            choices.append((Self.optimal(rates, kilobits: estimate * safetyFactor), "throughput"))
        }
        if appended >= Self.segmentIgnoreCount {
            if bufferLoaded == false {
                choices.append((0, "insufficient buffer: empty"))
            } else if let estimate {
                let kilobits = estimate * Self.insufficientBufferSafety * buffer / context.segmentDuration
                if kilobits > 0 { choices.append((Self.optimal(rates, kilobits: kilobits), "insufficient buffer")) }
            }
        }
        if let fromHistory = historyChoice(count: rates.count) { choices.append((fromHistory, "switch history")) }
        guard let lowest = choices.min(by: { $0.variant < $1.variant }) else {
            return AbrDecision(variant: current, reason: "dash.js: no rule asks for a change")
        }
        history.append((current, lowest.variant < current))
        if history.count > Self.historySize { history.removeFirst(history.count - Self.historySize) }
        var next = current
        if lowest.variant != current, context.time >= heldUntil || lowest.variant < current { next = lowest.variant }
        self.current = next
        let estimateText = estimate.map { "\(wholeNumber($0)) kbit/s" } ?? "none"
        return AbrDecision(variant: next, reason: "dash.js \(lowest.rule) (estimate \(estimateText))")
    }

    /// BolaRule (`BolaRule.js` 478-542): its first call picks by the safe throughput, later ones by
    /// buffer level, an up-switch above the throughput's choice held at the higher of that and the last.
    private mutating func bolaChoice(_ rates: [Double], buffer: Double, current: Int) -> Int? {
        guard let estimate = self.estimate else { return nil }
        let byThroughput = Self.optimal(rates, kilobits: estimate * safetyFactor)
        guard bolaStarted, let lowest = rates.first, lowest > 0, rates.count > 1 else {
            bolaStarted = true
            return byThroughput
        }
        let utilities = rates.map { log($0 / lowest) + 1 }
        let bufferTime = max(Self.bufferTimeDefault, Self.bolaMinimumBuffer + Self.bolaBufferPerLevel * Double(rates.count))
        let gp = ((utilities.last ?? 1) - 1) / (bufferTime / Self.bolaMinimumBuffer - 1)
        let vp = Self.bolaMinimumBuffer / gp
        var best = 0
        var bestScore = -Double.infinity
        for index in rates.indices {
            let score = (vp * (utilities[index] - 1 + gp) - buffer) / rates[index]
            if score >= bestScore {
                bestScore = score
                best = index
            }
        }
        if best > current, best > byThroughput { best = max(byThroughput, current) }
        return best
    }

    /// SwitchHistoryRule over the kept choices: walking up the ladder, once 8 choices are counted with
    /// drops / no-drops above 0.075, the variant below one that was dropped from (else that one).
    private func historyChoice(count: Int) -> Int? {
        var drops = 0
        var noDrops = 0
        for variant in 0..<count {
            let own = history.filter { $0.variant == variant }
            guard !own.isEmpty else { continue }
            let ownDrops = own.filter(\.drop).count
            drops += ownDrops
            noDrops += own.count - ownDrops
            if drops + noDrops >= Self.historySize, Double(drops) / Double(noDrops) > Self.switchPercentageThreshold {
                return variant > 0 && ownDrops > 0 ? variant - 1 : variant
            }
        }
        return nil
    }

    public mutating func recordDownload(_ download: PlayerAbrDownload) {
        guard !download.abandoned else { return }
        appended += 1
        let milliseconds = download.transfer * 1000
        guard milliseconds > 0, download.bytes > 0 else { return }
        let kilobits = (8 * Double(download.bytes) / milliseconds).rounded()
        let weight = Self.weightPerMillisecond * milliseconds
        fast.sample(weight: weight, value: kilobits)
        slow.sample(weight: weight, value: kilobits)
    }

    public mutating func abandonment(_ progress: PlayerAbrProgress) -> AbrDecision? {
        let context = progress.context
        guard progress.playing, progress.variant > 0, progress.elapsed > Self.abandonAfter,
            context.buffer <= Self.bufferTimeDefault, progress.arrivedBytes < progress.totalBytes,
            progress.arrivedBytes > 0
        else { return nil }
        let kilobits = (8 * progress.arrivedBytes / (progress.elapsed * 1000)).rounded()
        guard kilobits > 0 else { return nil }
        let seconds = progress.totalBytes * 8 / kilobits / 1000
        guard seconds >= context.segmentDuration * Self.abandonDurationMultiplier else { return nil }
        let rates = context.bitRates
        let target = Self.optimal(rates, kilobits: kilobits)
        let targetBytes = progress.totalBytes * rates[target] / rates[progress.variant]
        guard target < progress.variant, progress.totalBytes - progress.arrivedBytes > targetBytes else { return nil }
        heldUntil = context.time + Self.abandonHold
        history.removeAll()
        current = target
        return AbrDecision(
            variant: target, reason: "dash.js abandon: \(wholeNumber(kilobits)) kbit/s would take \(wholeNumber(seconds)) s")
    }

    public func overriding(safetyFactor: Double?) -> DashjsAbr {
        var model = self
        if let safetyFactor { model.safetyFactor = safetyFactor }
        return model
    }
}
