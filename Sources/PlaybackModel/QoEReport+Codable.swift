// snake_case keys and derived fields (stall_count, rebuffer_ratio) written out, so the JSON is stable and
// self-contained for scripts and the ITU-T P.1203 stalling input.
extension QoEReport: Codable {
    private enum CodingKeys: String, CodingKey {
        case started
        case startupDelay = "startup_delay"
        case stallCount = "stall_count"
        case stallTime = "stall_time"
        case rebufferRatio = "rebuffer_ratio"
        case stalls, seeks
        case seekWaitTime = "seek_wait_time"
        case played
        case playedWallTime = "played_wall_time"
        case pausedTime = "paused_time"
        case idleTime = "idle_time"
        case elapsed, ended, failure
    }

    /// Decodes a report; `stall_count` and `rebuffer_ratio` are derived, so they are read past.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        started = try container.decode(Bool.self, forKey: .started)
        startupDelay = try container.decode(Double.self, forKey: .startupDelay)
        stallTime = try container.decode(Double.self, forKey: .stallTime)
        stalls = try container.decode([Stall].self, forKey: .stalls)
        seeks = try container.decode([Seek].self, forKey: .seeks)
        seekWaitTime = try container.decode(Double.self, forKey: .seekWaitTime)
        played = try container.decode(Double.self, forKey: .played)
        playedWallTime = try container.decode(Double.self, forKey: .playedWallTime)
        pausedTime = try container.decode(Double.self, forKey: .pausedTime)
        idleTime = try container.decode(Double.self, forKey: .idleTime)
        elapsed = try container.decode(Double.self, forKey: .elapsed)
        ended = try container.decode(Bool.self, forKey: .ended)
        failure = try container.decodeIfPresent(String.self, forKey: .failure)
    }

    /// Encodes the report with snake_case keys.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(started, forKey: .started)
        try container.encode(startupDelay, forKey: .startupDelay)
        try container.encode(stallCount, forKey: .stallCount)
        try container.encode(stallTime, forKey: .stallTime)
        // `null` when playback never started, as every value a report does not have.
        if let rebufferRatio { try container.encode(rebufferRatio, forKey: .rebufferRatio) } else { try container.encodeNil(forKey: .rebufferRatio) }
        try container.encode(stalls, forKey: .stalls)
        try container.encode(seeks, forKey: .seeks)
        try container.encode(seekWaitTime, forKey: .seekWaitTime)
        try container.encode(played, forKey: .played)
        try container.encode(playedWallTime, forKey: .playedWallTime)
        try container.encode(pausedTime, forKey: .pausedTime)
        try container.encode(idleTime, forKey: .idleTime)
        try container.encode(elapsed, forKey: .elapsed)
        try container.encode(ended, forKey: .ended)
        try container.encodeIfPresent(failure, forKey: .failure)
    }
}

