#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs an `AbrRule` over a session: keeps the throughput and latency samples, the DYNAMIC mode and BOLA-U's
/// last choice, and picks the variant of each segment request. Pure: the same calls give the same decisions.
public struct AbrController: Sendable {
    /// The rule.
    public let rule: AbrRule
    /// The ladder's declared bit rates, ascending, bits per second.
    public let bitRates: [Double]
    /// The segments' (longest) duration in seconds: BOLA's `d`, and the time a segment has to arrive in.
    public let segmentDuration: Double
    /// The player's forward-buffer target: a request goes out below it, so the buffer holds at most one
    /// segment more, the most BOLA's buffer size can be.
    public let forwardTarget: Double

    /// One finished (or abandoned) segment download.
    private struct Sample: Sendable {
        /// Bits over the transfer time (first byte to last byte), bits per second.
        var throughput: Double
        /// Request to first byte, seconds.
        var latency: Double
    }

    /// Recent samples, oldest first.
    private var samples: [Sample] = []
    /// Sabre's EWMA, one per half-life: throughput weighted by transfer time (the shared
    /// `ThroughputEstimator`), latency per segment.
    private var ewmaThroughput: [ThroughputEstimator]
    private var ewmaLatency: [Double]
    private var ewmaLatencyHalfLives: [Double]
    private var ewmaSegments = 0
    /// Whether DYNAMIC is on its BOLA side (Sabre's `Dynamic.is_bola`; it starts on the throughput side).
    private var usingBola = false
    /// BOLA-U: the variant it chose last (under DYNAMIC, its own choice even while the throughput side is
    /// in use, as Sabre's `Bola.last_quality`), and the segment of the last seek.
    private var lastBolaVariant = 0
    private var lastSeekSegment = 0
    /// Sabre's insufficient-buffer safety, 0.9 shrinking by 0.9 per choice to 0.5.
    private var insufficientBufferSafety = 0.9
    /// A player's own model (`AbrRule.player`), with its state.
    private var player: (any PlayerAbrModel)?
    /// The ascending index of the variant the manifest lists first (a player model's first choice may
    /// depend on it).
    public var firstListed = 0

    /// Creates a controller for a ladder of `bitRates` (ascending, non-empty).
    public init(rule: AbrRule, bitRates: [Double], segmentDuration: Double, forwardTarget: Double) {
        self.rule = rule
        self.bitRates = bitRates
        self.segmentDuration = segmentDuration
        self.forwardTarget = forwardTarget
        var halfLives: [Double] = []
        switch rule {
        case .throughput(let parameters):
            if case .ewma(let values) = parameters.estimator { halfLives = values }
        case .bola(let parameters):
            if case .ewma(let values) = parameters.estimator { halfLives = values }
        case .dynamic(let throughput, let bola, _, _):
            if case .ewma(let values) = throughput.estimator { halfLives = values }
            if case .ewma(let values) = bola.estimator, halfLives.isEmpty { halfLives = values }
        case .player(let model): player = model.model
        case .fixed: break
        }
        let positive = halfLives.filter { $0 > 0 && $0.isFinite }
        ewmaThroughput = positive.map { ThroughputEstimator(halfLife: $0, minimumBytes: 0) }
        ewmaLatency = positive.map { _ in 0 }
        // Sabre's `Ewma`: the latency's half-life is counted in segments, `half-life / d`.
        ewmaLatencyHalfLives = positive.map { segmentDuration > 0 ? $0 / segmentDuration : 1 }
    }

    /// The buffer size BOLA works with: the rule's, at most what the player can hold (its forward target
    /// plus one segment).
    public var bolaBufferTarget: Double? {
        switch rule {
        case .bola(let parameters): min(parameters.bufferTarget, forwardTarget + segmentDuration)
        case .dynamic(_, let parameters, _, _): min(parameters.bufferTarget, forwardTarget + segmentDuration)
        default: nil
        }
    }

    /// Records a finished segment download: `bytes` that took `transfer` seconds from first to last byte,
    /// after `latency` seconds from request to first byte (Sabre's and dash.js's split: the throughput is
    /// the transfer's, the latency is charged once per segment when choosing).
    /// A player model measures the download itself (`variant` is the ascending index it was fetched at,
    /// `abandoned` whether it was dropped part-way, `time` the session time it ended).
    public mutating func recordDownload(
        bytes: Int64, transfer: Double, latency: Double, variant: Int = 0, abandoned: Bool = false, time: Double = 0,
        arrival: [PlayerAbrDownload.ArrivalPoint] = []
    ) {
        if player != nil {
            player?.recordDownload(
                PlayerAbrDownload(
                    variant: variant, bytes: bytes, latency: max(latency, 0), transfer: max(transfer, 0),
                    abandoned: abandoned, time: time, arrival: arrival))
            return
        }
        guard transfer > 0, transfer.isFinite, bytes > 0 else { return }
        let bits = Double(bytes) * 8
        samples.append(Sample(throughput: bits / transfer, latency: max(latency, 0)))
        let keep = 64
        if samples.count > keep { samples.removeFirst(samples.count - keep) }
        for index in ewmaThroughput.indices {
            ewmaThroughput[index].add(bytes: Int(bytes), elapsed: transfer)
            let alpha = exp2(-1 / ewmaLatencyHalfLives[index])
            ewmaLatency[index] = alpha * ewmaLatency[index] + (1 - alpha) * max(latency, 0)
        }
        ewmaSegments += 1
    }

    /// Notes a seek (a request restarted at segment `segment`): BOLA-U counts its start-up from there.
    public mutating func noteSeek(segment: Int) {
        lastSeekSegment = segment
    }

    /// The variant for segment `segment` of `segmentCount`, with `buffer` seconds ahead of the playhead now
    /// (session time `time`, which only a player model reads).
    public mutating func choose(buffer: Double, segment: Int = 0, segmentCount: Int = 0, time: Double = 0) -> AbrDecision {
        switch rule {
        case .player:
            let context = PlayerAbrContext(
                bitRates: bitRates, firstListed: firstListed, segmentDuration: segmentDuration, buffer: buffer,
                segment: segment, segmentCount: segmentCount, time: time)
            return player?.choose(context) ?? AbrDecision(variant: 0, reason: "no model")
        case .fixed(let variant):
            return AbrDecision(variant: min(max(variant, 0), bitRates.count - 1), reason: "fixed")
        case .throughput(let parameters):
            let pick = throughputPick(parameters, buffer: buffer)
            return AbrDecision(variant: pick.variant, reason: pick.why.text)
        case .bola(let parameters):
            let pick = bolaPick(parameters, buffer: buffer, segment: segment, segmentCount: segmentCount)
            return AbrDecision(variant: pick.variant, reason: pick.why.text)
        case .dynamic(let throughput, let bola, let switchOn, let switchOff):
            // Sabre's Dynamic.get_quality_delay (src/sabre.py 1023-1036): both rules choose every time, BOLA
            // first, so BOLA-U's last choice and the insufficient-buffer safety move on whichever side is in
            // use; the sub-rules' own choices are the hysteresis, beside the buffer level. Only the pick used
            // is put into words, so asking both costs no more formatting than asking one.
            let bolaChoice = bolaPick(bola, buffer: buffer, segment: segment, segmentCount: segmentCount)
            let throughputChoice = throughputPick(throughput, buffer: buffer)
            if usingBola {
                if buffer < switchOff && bolaChoice.variant < throughputChoice.variant { usingBola = false }
            } else if buffer > switchOn && bolaChoice.variant >= throughputChoice.variant {
                usingBola = true
            }
            let pick = usingBola ? bolaChoice : throughputChoice
            return AbrDecision(
                variant: pick.variant,
                reason: (usingBola ? "dynamic (bola side): " : "dynamic (throughput side): ") + pick.why.text)
        }
    }

    /// A player model's abandonment interval (`PlayerAbrModel.abandonCheckInterval`); `nil` for the
    /// other rules or a model that never abandons.
    public var playerAbandonInterval: Double? { player?.abandonCheckInterval }

    /// Whether a player model reads a download's arrival curve (`PlayerAbrModel.needsArrival`).
    public var playerNeedsArrival: Bool { player?.needsArrival ?? false }

    /// Whether a player model judges the session's first request too (`PlayerAbrModel.judgesFirstRequest`).
    public var playerJudgesFirstRequest: Bool { player?.judgesFirstRequest ?? false }

    /// A player model's fast-switch level in segment durations (`PlayerAbrModel.fastSwitchLevel`); `nil`
    /// for the other rules or a model that never replaces buffered segments.
    public var playerFastSwitchLevel: Double? { player?.fastSwitchLevel }

    /// A player model's judgement of the segment in flight (`PlayerAbrModel.abandonment`); `nil` for the
    /// other rules.
    public mutating func playerAbandonment(_ progress: PlayerAbrProgress) -> AbrDecision? {
        player?.abandonment(progress)
    }

    /// The throughput (bits per second, over transfers) and request-latency (seconds) estimates of
    /// `estimator`, or `nil` before the first sample.
    public func estimate(_ estimator: AbrRule.Estimator, window: Int) -> (throughput: Double, latency: Double)? {
        guard !samples.isEmpty else { return nil }
        switch estimator {
        case .sliding:
            let recent = samples.suffix(max(window, 1))
            let count = Double(recent.count)
            return (recent.reduce(0) { $0 + $1.throughput } / count, recent.reduce(0) { $0 + $1.latency } / count)
        case .ewma:
            guard !ewmaThroughput.isEmpty else { return estimate(.sliding, window: window) }
            // Sabre's conservative pair: the lowest throughput and the highest latency of the half-lives.
            var throughput = Double.infinity
            var latency = 0.0
            for index in ewmaThroughput.indices {
                if let value = ewmaThroughput[index].bitsPerSecond { throughput = min(throughput, value) }
                let zero = 1 - exp2(-Double(ewmaSegments) / ewmaLatencyHalfLives[index])
                if zero > 0 { latency = max(latency, ewmaLatency[index] / zero) }
            }
            guard throughput.isFinite else { return nil }
            return (throughput, latency)
        }
    }

    /// The highest variant whose segment, fetched at `throughput` after `latency`, arrives within a
    /// segment duration (Sabre's `Abr.quality_from_throughput`); the lowest when none does.
    public func sustainedVariant(throughput: Double, latency: Double) -> Int {
        let d = segmentDuration
        var variant = 0
        while variant + 1 < bitRates.count, throughput > 0, latency + d * bitRates[variant + 1] / throughput <= d {
            variant += 1
        }
        return variant
    }

    /// Why a rule picked its variant, the figures kept and put into words only for a decision that is used.
    private enum Why {
        case noThroughput
        case throughput(estimate: Double, safety: Double, latency: Double, insufficientBuffer: Bool)
        case bolaOneVariant
        case bolaStartup
        case bola(buffer: Double, cappedBy: Double?)

        /// The reason as `AbrDecision.reason` states it.
        var text: String {
            switch self {
            case .noThroughput: return "no throughput measured yet: lowest variant"
            case .throughput(let estimate, let safety, let latency, let insufficientBuffer):
                let text =
                    "throughput \(BitRate(bitsPerSecond: estimate).description) x \(safety) = \(BitRate(bitsPerSecond: estimate * safety).description) after \(Seconds((latency * 1000).rounded() / 1000).description) latency"
                return insufficientBuffer ? text + "; insufficient buffer" : text
            case .bolaOneVariant: return "bola: one variant"
            case .bolaStartup: return "bola: startup, lowest variant"
            case .bola(let buffer, let cappedBy):
                let text = "bola: buffer \(Seconds((buffer * 1000).rounded() / 1000).description)"
                guard let cappedBy else { return text }
                return text + "; capped by throughput \(BitRate(bitsPerSecond: cappedBy).description)"
            }
        }
    }

    private mutating func throughputPick(_ parameters: AbrRule.Throughput, buffer: Double) -> (variant: Int, why: Why) {
        guard let (estimate, latency) = estimate(parameters.estimator, window: parameters.window) else {
            return (0, .noThroughput)
        }
        let budget = estimate * parameters.safetyFactor
        var variant = sustainedVariant(throughput: budget, latency: latency)
        var insufficient = false
        if parameters.insufficientBufferRule {
            // Sabre's ThroughputRule.get_quality_delay: the safety shrinks at every choice, as Sabre's does.
            let safeBits = insufficientBufferSafety * (buffer - latency) * estimate
            insufficientBufferSafety = max(insufficientBufferSafety * 0.9, 0.5)
            if let capped = (0..<variant).first(where: { bitRates[$0 + 1] * segmentDuration > safeBits }) {
                variant = capped
                insufficient = true
            }
        }
        return (variant, .throughput(estimate: estimate, safety: parameters.safetyFactor, latency: latency, insufficientBuffer: insufficient))
    }

    /// BOLA's `V` for a buffer size (`(size - d) / (u_max + gp)`, kept positive for tiny sizes).
    static func bolaV(bufferSize: Double, segmentDuration: Double, topUtility: Double, gammaP: Double) -> Double {
        max(bufferSize - segmentDuration, segmentDuration) / (topUtility + gammaP)
    }

    private mutating func bolaPick(
        _ parameters: AbrRule.Bola, buffer: Double, segment: Int, segmentCount: Int
    ) -> (variant: Int, why: Why) {
        guard let lowest = bitRates.first, lowest > 0, bitRates.count > 1 else {
            return (0, .bolaOneVariant)
        }
        if samples.isEmpty && buffer <= 0 {
            lastBolaVariant = 0
            return (0, .bolaStartup)
        }
        let utilities = bitRates.map { log($0 / lowest) }
        let top = utilities.last ?? 0
        var size = min(parameters.bufferTarget, forwardTarget + segmentDuration)
        if parameters.variant == .u, segmentCount > 0 {
            // Sabre's Bola.get_quality_delay: a smaller buffer size near the start (or a seek) and the end.
            let t = max(Double(min(segment - lastSeekSegment, segmentCount - segment)) / 2, 3) * segmentDuration
            size = min(size, t)
        }
        let v = Self.bolaV(bufferSize: size, segmentDuration: segmentDuration, topUtility: top, gammaP: parameters.gammaP)
        var best = 0
        var bestScore = -Double.infinity
        for (index, rate) in bitRates.enumerated() {
            let score = (v * (utilities[index] + parameters.gammaP) - buffer) / rate
            if score > bestScore {
                bestScore = score
                best = index
            }
        }
        var cappedBy: Double?
        if parameters.variant == .u, best > lastBolaVariant,
            let (throughput, latency) = estimate(parameters.estimator, window: parameters.window)
        {
            let sustained = sustainedVariant(throughput: throughput, latency: latency)
            if best > sustained {
                // BOLA-U: at most one above what the throughput sustains, never down for that reason.
                best = lastBolaVariant > sustained ? lastBolaVariant : sustained + 1
                cappedBy = throughput
            }
        }
        lastBolaVariant = best
        return (best, .bola(buffer: buffer, cappedBy: cappedBy))
    }
}
