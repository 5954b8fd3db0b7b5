// JSON/YAML shape for scripts and reports: snake_case keys, every key optional on input (a script may give
// only `forward_target: 15`), `keep_up` as "threshold" or "predictive" with an optional
// `keep_up_horizon`, a doubling resume threshold as its `resume_cap` (absent: fixed), an infinite back buffer as the word "all" because JSON has no infinity, `stall_level` only when above 0, and `stall_nudge` only when set.
extension BufferPolicy: Codable {
    private enum CodingKeys: String, CodingKey {
        case startThreshold = "start_threshold"
        case resumeThreshold = "resume_threshold"
        case forwardTarget = "forward_target"
        case backBuffer = "back_buffer"
        case keepUp = "keep_up"
        case keepUpHorizon = "keep_up_horizon"
        case resumeCap = "resume_cap"
        case stallLevel = "stall_level"
        case stallNudge = "stall_nudge"
    }

    /// Decodes a policy; missing keys take the defaults. The result is not validated: call `validate()`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = BufferPolicy.default
        self.init(
            startThreshold: try container.decodeIfPresent(Double.self, forKey: .startThreshold)
                ?? defaults.startThreshold,
            resumeThreshold: try container.decodeIfPresent(Double.self, forKey: .resumeThreshold)
                ?? defaults.resumeThreshold,
            forwardTarget: try container.decodeIfPresent(Double.self, forKey: .forwardTarget)
                ?? defaults.forwardTarget)
        if container.contains(.backBuffer) {
            if let seconds = try? container.decode(Double.self, forKey: .backBuffer) {
                backBuffer = seconds
            } else if try container.decode(String.self, forKey: .backBuffer) == "all" {
                backBuffer = .infinity
            } else {
                throw DecodingError.dataCorruptedError(
                    forKey: .backBuffer, in: container,
                    debugDescription: "The back buffer is a number of seconds or \"all\".")
            }
        }
        switch try container.decodeIfPresent(String.self, forKey: .keepUp) ?? "threshold" {
        case "threshold":
            keepUp = .threshold
        case "predictive":
            keepUp = .predictive(horizon: try container.decodeIfPresent(Double.self, forKey: .keepUpHorizon))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .keepUp, in: container, debugDescription: "keep_up is \"threshold\" or \"predictive\".")
        }
        if let cap = try container.decodeIfPresent(Double.self, forKey: .resumeCap) {
            resumeGrowth = .doubling(cap: cap)
        }
        stallLevel = try container.decodeIfPresent(Double.self, forKey: .stallLevel) ?? 0
        stallNudge = try container.decodeIfPresent(StallNudge.self, forKey: .stallNudge)
    }

    /// Encodes the policy with snake_case keys.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(startThreshold, forKey: .startThreshold)
        try container.encode(resumeThreshold, forKey: .resumeThreshold)
        try container.encode(forwardTarget, forKey: .forwardTarget)
        if backBuffer == .infinity {
            try container.encode("all", forKey: .backBuffer)
        } else {
            try container.encode(backBuffer, forKey: .backBuffer)
        }
        switch keepUp {
        case .threshold:
            try container.encode("threshold", forKey: .keepUp)
        case .predictive(let horizon):
            try container.encode("predictive", forKey: .keepUp)
            try container.encodeIfPresent(horizon, forKey: .keepUpHorizon)
        case .player(let start):
            // Written for a reader; not read back (a script cannot name a player's own rule).
            try container.encode(start.rule.name, forKey: .keepUp)
        }
        if case .doubling(let cap) = resumeGrowth {
            try container.encode(cap, forKey: .resumeCap)
        }
        if stallLevel > 0 { try container.encode(stallLevel, forKey: .stallLevel) }
        try container.encodeIfPresent(stallNudge, forKey: .stallNudge)
    }
}
