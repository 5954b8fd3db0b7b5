#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs an `AbrRule` over a session: keeps the throughput samples and the DYNAMIC mode, and picks the
/// variant of each segment request. Pure: the same calls give the same decisions.
public struct AbrController: Sendable {
    /// The rule.
    public let rule: AbrRule
    /// The ladder's declared bit rates, ascending, bits per second.
    public let bitRates: [Double]
    /// The segments' (longest) duration in seconds, for BOLA's `V`.
    public let segmentDuration: Double
    /// The player's forward-buffer target: BOLA's buffer target never exceeds it.
    public let forwardTarget: Double

    /// Recent per-segment throughputs, bits per second, oldest first.
    private var samples: [Double] = []
    /// Whether DYNAMIC is on its BOLA side.
    private var usingBola = false

    /// Creates a controller for a ladder of `bitRates` (ascending, non-empty).
    public init(rule: AbrRule, bitRates: [Double], segmentDuration: Double, forwardTarget: Double) {
        self.rule = rule
        self.bitRates = bitRates
        self.segmentDuration = segmentDuration
        self.forwardTarget = forwardTarget
    }

    /// Records a finished segment download: `bits` in `seconds` from request to last byte (latency
    /// included, as a player measures it).
    public mutating func recordDownload(bits: Double, seconds: Double) {
        guard seconds > 0, bits > 0 else { return }
        samples.append(bits / seconds)
        let keep = 64
        if samples.count > keep { samples.removeFirst(samples.count - keep) }
    }

    /// The variant for the next segment, with `buffer` seconds ahead of the playhead now.
    public mutating func choose(buffer: Double) -> AbrDecision {
        switch rule {
        case .fixed(let variant):
            return AbrDecision(variant: min(max(variant, 0), bitRates.count - 1), reason: "fixed")
        case .throughput(let parameters):
            return throughputDecision(parameters)
        case .bola(let parameters):
            return bolaDecision(parameters, buffer: buffer)
        case .dynamic(let throughput, let bola, let switchOn, let switchOff):
            // Hysteresis as dash.js: on at `switchOn`, off below `switchOff`.
            usingBola = usingBola ? buffer >= switchOff : buffer >= switchOn
            var decision = usingBola ? bolaDecision(bola, buffer: buffer) : throughputDecision(throughput)
            decision.reason = (usingBola ? "dynamic (bola side): " : "dynamic (throughput side): ") + decision.reason
            return decision
        }
    }

    /// The mean of the last `window` samples, or `nil` before the first.
    func estimate(window: Int) -> Double? {
        guard !samples.isEmpty else { return nil }
        let recent = samples.suffix(max(window, 1))
        return recent.reduce(0, +) / Double(recent.count)
    }

    private func throughputDecision(_ parameters: AbrRule.Throughput) -> AbrDecision {
        guard let estimate = estimate(window: parameters.window) else {
            return AbrDecision(variant: 0, reason: "no throughput measured yet: lowest variant")
        }
        let budget = estimate * parameters.safetyFactor
        let variant = bitRates.lastIndex { $0 <= budget } ?? 0
        return AbrDecision(
            variant: variant,
            reason: "throughput \(BitRate(bitsPerSecond: estimate).description) x \(parameters.safetyFactor) = \(BitRate(bitsPerSecond: budget).description)")
    }

    private func bolaDecision(_ parameters: AbrRule.Bola, buffer: Double) -> AbrDecision {
        guard let lowest = bitRates.first, lowest > 0, bitRates.count > 1 else {
            return AbrDecision(variant: 0, reason: "bola: one variant")
        }
        if samples.isEmpty && buffer <= 0 {
            return AbrDecision(variant: 0, reason: "bola: startup, lowest variant")
        }
        let utilities = bitRates.map { log($0 / lowest) }
        let top = utilities.last ?? 0
        let target = min(parameters.bufferTarget, forwardTarget)
        // Sabre: Vp = (buffer_size - segment_time) / (utility_max + gp); kept positive for tiny targets.
        let v = max(target - segmentDuration, segmentDuration) / (top + parameters.gammaP)
        var best = 0
        var bestScore = -Double.infinity
        for (index, rate) in bitRates.enumerated() {
            let score = (v * (utilities[index] + parameters.gammaP) - buffer) / rate
            if score > bestScore {
                bestScore = score
                best = index
            }
        }
        return AbrDecision(variant: best, reason: "bola: buffer \(Seconds(buffer).description)")
    }
}
