package import CheckEngine
package import PlaybackModel

/// One named module of the configuration file (`module=NAME` on `/probe`), in the blackbox exporter's
/// sense: how a class of targets is checked. Every field is optional; what a module leaves out is
/// check's default (or what the request itself says, within the scrape's budget).
package struct ProbeModule: Sendable {
    /// The module's name.
    package var name: String
    /// `player`: the preset the module's policy starts from (`check --player`).
    package var player: PlayerPreset?
    /// `policy.start_threshold`, over the preset's (or check's default).
    package var startThreshold: Double?
    /// `policy.resume_threshold`, over the preset's: a fixed threshold, as `--resume-threshold` is.
    package var resumeThreshold: Double?
    /// `policy.max_buffer`, over the preset's.
    package var maxBuffer: Double?
    /// Longest startup delay that still passes, seconds.
    package var maxStartup: Double?
    /// `max_stalls`, `max_stall_time`, `max_rebuffer_ratio`, `max_latency`, `max_drift`,
    /// `min_realtime_factor`, `max_peak_over_bandwidth`, `max_hole`, `max_origin_faults` (infinite: `none`): check's verdict
    /// thresholds (`--max-stalls`...), by name; a name left out keeps check's default.
    package var thresholds: [VerdictThresholds.Name: Double] = [:]
    /// Default longest wait (check's `--timeout`), seconds; capped at the scrape's budget.
    package var timeout: Double?
    /// Default sample (check's `--duration`), seconds; capped at the scrape's budget.
    package var duration: Double?
    /// Extra request headers, `Name: value` each.
    package var headers: [String] = []
    /// The `User-Agent`, `nil` for bufprobe's own.
    package var userAgent: String?
    /// Targets this module may probe, on top of `--allow-target` (both must admit a target).
    package var allowTargets: [String] = []
    /// The compiled `allowTargets`, `nil` when there are none.
    package var allowList: TargetPolicy?
    /// CMCD's mode, `nil` for none.
    package var cmcd: CMCD.Mode?
    /// CMCD's content id (`cid`).
    package var cmcdContentID: String?
    /// `validate: true`: `/probe` validates the target (`bufprobe validate`, within the scrape's budget)
    /// instead of checking it, and answers `bufprobe_validation_findings{rule,level}` (`ValidationMetrics`).
    package var validate = false

    /// A module with check's defaults.
    package init(name: String) { self.name = name }

    /// Player thresholds: the preset's (or `BufferPolicy.default`) with the module's `policy` keys over it,
    /// by check's rule (`BufferPolicy.overriding`, as the command line's options).
    package var policy: BufferPolicy {
        (player?.policy ?? .default).overriding(
            startThreshold: startThreshold, resumeThreshold: resumeThreshold, forwardTarget: maxBuffer)
    }

    /// The module without a configuration file, or for a request without `module=`.
    package static let builtIn = ProbeModule(name: "default")

    /// `settings` with the module's choices applied: the policy, `maxStartup`, headers, user agent and
    /// CMCD (a new session id for each check); `timeout` and `duration` only where the request did not
    /// give its own, and never beyond `share` seconds.
    package func apply(to settings: inout CheckSettings, share: Double, requestedTimeout: Bool, requestedDuration: Bool) {
        // A request's own `player=` is the more specific choice: it replaces the module's policy.
        if settings.player == nil {
            settings.player = player
            settings.policy = policy
        }
        if let maxStartup { settings.maxStartup = maxStartup }
        settings.thresholds.set(thresholds)
        settings.headers += headers
        if let userAgent { settings.userAgent = userAgent }
        if let cmcd { settings.cmcd = CMCD(mode: cmcd, contentID: cmcdContentID) }
        if let timeout, !requestedTimeout { settings.timeout = min(timeout, share) }
        if let duration, !requestedDuration { settings.duration = min(duration, share) }
    }

    /// The module's settings, one `name: value` a line (the debug answer's and the configuration
    /// check's words).
    package var summary: String {
        var lines = [
            "module: \(name)",
            "start_threshold: \(policy.startThreshold)s", "resume_threshold: \(policy.resumeThreshold)s",
            "max_buffer: \(policy.forwardTarget)s",
        ]
        if validate { lines.append("validate: true") }
        if let maxStartup { lines.append("max_startup: \(maxStartup)s") }
        for name in VerdictThresholds.Name.allCases {
            guard let value = thresholds[name] else { continue }
            let shown = value.isInfinite ? "none" : [.maxStalls, .maxOriginFaults].contains(name) ? (Int(exactly: value).map(String.init) ?? "\(value)") : [.maxRebufferRatio, .minRealtimeFactor, .maxPeakOverBandwidth].contains(name) ? "\(value)" : "\(value)s"
            lines.append("\(name.rawValue): \(shown)")
        }
        if let player { lines.append("player: \(player.rawValue)") }
        if let timeout { lines.append("timeout: \(timeout)s") }
        if let duration { lines.append("duration: \(duration)s") }
        // Header values may be credentials: their names only.
        for header in headers { lines.append("header: \(header.prefix { $0 != ":" }): <\(header.count) characters>") }
        if let userAgent { lines.append("user_agent: \(userAgent)") }
        for pattern in allowTargets { lines.append("allow_target: \(pattern)") }
        if let cmcd { lines.append("cmcd: \(cmcd.rawValue)" + (cmcdContentID.map { " (cid \($0))" } ?? "")) }
        return lines.joined(separator: "\n")
    }
}
