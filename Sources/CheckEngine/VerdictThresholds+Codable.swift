import BufprobeOutput
// The `thresholds` object of `check --json`'s settings: every key always present, `null` for a threshold
// that is not limited (the document's rule), keys made snake_case by `JSONOutput`.
extension VerdictThresholds: Codable {
    private enum CodingKeys: String, CodingKey {
        case maxStalls, maxStallTime, maxRebufferRatio, maxStartup, maxLatency, maxDrift, minRealtimeFactor, maxPeakOverBandwidth, maxHole,
            maxOriginFaults
    }

    /// Decodes the object `encode(to:)` writes; a missing or `null` optional threshold is no limit, a
    /// missing `min_realtime_factor`, `max_peak_over_bandwidth`, `max_hole` or `max_origin_faults` (a
    /// document from before they existed) is its default, 1, 0.1, 0 and 0.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            maxStalls: try container.decode(Int.self, forKey: .maxStalls),
            maxStallTime: try container.decodeIfPresent(Double.self, forKey: .maxStallTime),
            maxRebufferRatio: try container.decodeIfPresent(Double.self, forKey: .maxRebufferRatio),
            maxStartup: try container.decode(Double.self, forKey: .maxStartup),
            maxLatency: try container.decodeIfPresent(Double.self, forKey: .maxLatency),
            maxDrift: try container.decodeIfPresent(Double.self, forKey: .maxDrift),
            minRealtimeFactor: try container.decodeIfPresent(Double.self, forKey: .minRealtimeFactor) ?? 1,
            maxPeakOverBandwidth: container.contains(.maxPeakOverBandwidth)
                ? try container.decodeIfPresent(Double.self, forKey: .maxPeakOverBandwidth) : 0.1,
            maxHole: container.contains(.maxHole) ? try container.decodeIfPresent(Double.self, forKey: .maxHole) : 0,
            maxOriginFaults: container.contains(.maxOriginFaults) ? try container.decodeIfPresent(Int.self, forKey: .maxOriginFaults) : 0)
    }

    /// Encodes every threshold, `null` for those not limited.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(maxStalls, forKey: .maxStalls)
        try encode(maxStallTime, .maxStallTime, in: &container)
        try encode(maxRebufferRatio, .maxRebufferRatio, in: &container)
        try container.encode(maxStartup, forKey: .maxStartup)
        try encode(maxLatency, .maxLatency, in: &container)
        try encode(maxDrift, .maxDrift, in: &container)
        try container.encode(minRealtimeFactor, forKey: .minRealtimeFactor)
        try encode(maxPeakOverBandwidth, .maxPeakOverBandwidth, in: &container)
        try encode(maxHole, .maxHole, in: &container)
        if let maxOriginFaults { try container.encode(maxOriginFaults, forKey: .maxOriginFaults) } else {
            try container.encodeNil(forKey: .maxOriginFaults)
        }
    }

    private func encode(_ value: Double?, _ key: CodingKeys, in container: inout KeyedEncodingContainer<CodingKeys>) throws {
        if let value { try container.encode(value, forKey: key) } else { try container.encodeNil(forKey: key) }
    }
}
