/// How far and how fast `validate` reads: its bounds (a stream larger than them is validated on the
/// segments read, and the report says which were not), the request options, and the rules left out.
public struct ValidationSettings: Sendable, Hashable {
    /// Seconds each request may wait for data (`--timeout`).
    public var timeout: Double = 10
    /// Requests at once (`--concurrency`).
    public var concurrency: Int = 4
    /// Segment bytes read in all (`--max-bytes`); segments past it are not read.
    public var maxBytes: Int64 = 4 << 30
    /// Seconds the reading may take (`--max-time`); segments not started by then are not read.
    public var maxTime: Double = 600
    /// The largest segment or `#EXT-X-MAP` section read: larger ones are a finding (bufprobe:read).
    public var segmentBytes: Int64 = 256 << 20
    /// Protocol options for every request (`user_agent`, `headers`).
    public var options: [String: String] = [:]
    /// Rule ids whose findings are dropped (`--ignore`).
    public var ignored: Set<String> = []

    /// The defaults.
    public init() {}
}
