package import MediaIO
package import PlaybackModel

/// Everything one check needs from the command line, as plain values.
package struct CheckSettings: Sendable {
    /// The longest a single open or packet read may block, seconds.
    package var timeout: Double = 10
    /// Seconds to receive before stopping; `nil` receives the whole stream.
    package var duration: Double?
    /// How long a live stream is sampled when `duration` is not given, seconds.
    package static let defaultLiveSample = 30.0
    /// Extra HTTP request headers, `Name: value` each.
    package var headers: [String] = []
    /// The HTTP `User-Agent`, when set.
    package var userAgent: String?
    /// The HLS/DASH variant to play.
    package var variant: VariantChoice = .best
    /// The player's thresholds.
    package var policy: BufferPolicy = .default
    /// `--record-trace`: record the throughput over time (`CheckSession.recording()`).
    package var recordsTrace = false
    /// The `--player` preset the policy started from, when one was given.
    package var player: PlayerPreset?
    /// Longest startup delay that still passes, seconds.
    package var maxStartup: Double = 3
    /// Delivery pace for local files.
    package var rate: ReadRate?
    /// `--all-variants`: validate every HLS variant against what the master declares.
    package var allVariants = false
    /// `--all-variants-segments`: segments sized per variant for the bandwidth comparison.
    package var allVariantsSegments = VariantProber.defaultSegments
    /// Wall seconds the whole `--all-variants` validation may take (the exporter's share of a scrape);
    /// `nil`: no bound beyond `--timeout` for each request. Variants not validated in time are named in a
    /// warning, not reported as failed.
    package var allVariantsBudget: Double?

    /// Which URLs the check may request (`--deny-private`, `serve --allow-target`); `nil`: any.
    package var requestPolicy: RequestPolicy?

    /// Creates the defaults.
    package init() {}

    /// The libavformat options for opening: `headers` and `user_agent`. No `timeout`/`rw_timeout`: the
    /// interrupt callback bounds every wait instead (with HLS those options hang or turn a stalled
    /// segment into a silent end of file).
    package var formatOptions: [String: String] {
        var options: [String: String] = [:]
        if !headers.isEmpty { options["headers"] = headers.map { $0 + "\r\n" }.joined() }
        if let userAgent { options["user_agent"] = userAgent }
        return options
    }
}
