import MediaIO
import InputReading
package import PlaybackModel
import BufprobeOutput

/// The check's verdict as a pure function of what it measured: no servers, no clock, no I/O. `CheckSession`
/// gathers the `Measurements` and calls `decide`; the rules live here only.
///
/// Rules, in order:
/// - A failure sentence (could not open, no playable stream, ended early, timeout, interrupted) is `fail`.
/// - Never started (the start threshold never arrived in the sampled time) is `degraded`.
/// - Otherwise every problem found makes it `degraded`, all named in one sentence: more stalls than
///   `--max-stalls` (0 by default: any stall), more stall time than `--max-stall-time`, a rebuffer ratio
///   above `--max-rebuffer-ratio`, a startup above `--max-startup`, a live latency above `--max-latency` or
///   a drift above `--max-drift` (`VerdictThresholds`; a threshold other than the default is named with
///   its value where it was crossed), a peak more than `--max-peak-over-bandwidth` (10% by default) above the declared HLS `BANDWIDTH`,
///   receiving slower than
///   `--min-realtime-factor` (1 by default: slower than real time; 0: no limit), a hole in the received media longer than `--max-hole` (0 by default: any), a variant playlist that cannot be served, a resource it leads to
///   that was refused or skipped, a live playlist that went stale (unchanged for more than 1.5x its target
///   duration), and with `--all-variants` a variant whose playlist or first segment fails or that is not
///   what the master declares (`VariantValidator`), an LL-HLS server that ignores blocking playlist reloads
///   (answers without the part asked for), a live DASH segment listed but not served: these origin faults
///   count against `--max-origin-faults` (0 by default: any), and a pass names those it allowed.
/// - None: `pass`.
package enum Verdict {
    /// What the check measured, in presentation time (the playable start is 0).
    package struct Measurements: Sendable {
        /// The URL or path, as the sentence names it.
        package var source: String
        /// Why the check failed, when it did (the sentence is the reason).
        package var failure: String?
        /// The player's experience (stalls, startup delay), positions from the playable start.
        package var qoe: QoEReport
        /// Whether receiving stopped because the sample time was up (not at the end of the stream).
        package var sampled = false
        /// Seconds the check ran.
        package var sampledDuration = 0.0
        /// Seconds of buffer the player needs to start.
        package var startThreshold = BufferPolicy.default.startThreshold
        /// The limits in force (`--max-stalls`, `--max-startup`...).
        package var thresholds = VerdictThresholds.default
        /// The longest acceptable startup delay (`--max-startup`, `thresholds.maxStartup`).
        package var maxStartup: Double {
            get { thresholds.maxStartup }
            set { thresholds.maxStartup = newValue }
        }
        /// A live stream's highest latency to the live edge while playing (`live_latency.max`), seconds.
        package var latencyMax: Double?
        /// A live stream's latency at the end minus at the start (`live_latency.drift`), seconds.
        package var latencyDrift: Double?
        /// The declared HLS variant `BANDWIDTH` (bits/s), when the played variant declares one.
        package var declaredVariantBitRate: Double?
        /// The highest 1 s bit rate received, bits/s.
        package var peakBitRate: Double?
        /// Media seconds received per wall second.
        package var realtimeFactor: Double?
        /// The playable media received, from the playable start.
        package var received: [TimeRange] = []
        /// Variant playlists that failed to load, with the HTTP status they answered.
        package var brokenPlaylists: [(url: String, status: Int)] = []
        /// Resources the input led to that were refused or skipped (a variant that sent nothing), with why.
        package var skippedResources: [(url: String, why: String)] = []
        /// Live playlists that stopped updating for more than 1.5x their target duration, with the wall
        /// second (from the start of the check) the reload that found it was read.
        package var stalePlaylists: [(url: String, at: Double)] = []
        /// `check --all-variants`: each variant's problems (failed playlist or segment, a declared
        /// attribute the media contradicts), by variant index.
        package var variantProblems: [(variant: Int, kinds: [VariantCheck.Kind])] = []
        /// A live DASH input's report: segments it lists inside their availability window that answered
        /// an error make it degraded (the player's early requests and late reloads are warnings only).
        package var dashLive: DASHLiveReport?
        /// LL-HLS: the media playlist whose blocking reloads were answered without the part asked for, how
        /// many were and how many were made (`LowLatencyMonitor`); `nil` when none was ignored.
        package var ignoredBlockingReloads: (playlist: String, ignored: Int, made: Int)?

        /// Measurements of a check of `source` whose player reported `qoe`.
        package init(source: String, qoe: QoEReport) {
            self.source = source
            self.qoe = qoe
        }
    }

    /// The verdict and its one-sentence reason.
    package static func decide(_ m: Measurements) -> (verdict: CheckVerdict, reason: String) {
        if let failure = m.failure { return (.fail, failure) }
        let source = m.source
        guard m.qoe.started else {
            // What the origin failed to serve is most often why: said after the figure.
            let causes = originProblems(m)
            return (.degraded, "\(source) did not start: \(TextFormat.seconds(m.startThreshold)) of media never arrived in the \(TextFormat.seconds(m.sampledDuration)) sampled" + (causes.isEmpty ? "." : "; it " + join(causes) + "."))
        }
        let startup = m.qoe.startupDelay
        var problems: [String] = []
        let limits = m.thresholds
        if let stalls = stallProblem(m) { problems.append(stalls) }
        if let limit = limits.maxRebufferRatio, let ratio = m.qoe.rebufferRatio, ratio > limit {
            problems.append("had a rebuffer ratio of \(VerdictThresholds.percent(ratio)) (more than \(limits.named(.maxRebufferRatio)))")
        }
        if startup > m.maxStartup {
            problems.append(
                "took \(TextFormat.seconds(startup)) to start, more than the \(TextFormat.seconds(m.maxStartup)) allowed (--max-startup)")
        }
        if let limit = limits.maxLatency, let latency = m.latencyMax, latency > limit {
            problems.append("was up to \(TextFormat.seconds(latency)) behind the live edge (more than \(limits.named(.maxLatency)))")
        }
        if let limit = limits.maxDrift, let drift = m.latencyDrift, drift > limit {
            problems.append("fell \(TextFormat.seconds(drift)) further behind the live edge during the check (more than \(limits.named(.maxDrift)))")
        }
        if let declared = m.declaredVariantBitRate, let peak = m.peakBitRate,
            BandwidthRule.exceeds(measured: peak, declared: declared, tolerance: limits.maxPeakOverBandwidth),
            let tolerance = limits.maxPeakOverBandwidth
        {
            problems.append(
                "peaked at \(TextFormat.bitRate(peak)), more than \(BandwidthRule.text(tolerance)) above its declared BANDWIDTH of \(TextFormat.bitRate(declared)) (--max-peak-over-bandwidth)")
        }
        if let factor = m.realtimeFactor, factor < limits.minRealtimeFactor {
            let figure = String(format: "%.2fx", factor)
            problems.append(
                factor < 1
                    ? "arrived slower than real time (\(figure), below \(limits.named(.minRealtimeFactor)))"
                    : "arrived at \(figure) real time (below \(limits.named(.minRealtimeFactor)))")
        }
        // A hole in the media the stream delivered: the player jumps it (at once when small, else once
        // the stream has ended), so it is not always a stall; viewers still see the picture freeze or jump.
        // --max-hole: 0 by default (any hole), named only when a team set its own.
        for (before, after) in zip(m.received, m.received.dropFirst()) {
            guard let limit = limits.maxHole, after.start - before.end > limit else { continue }
            problems.append(
                "has a \(TextFormat.seconds(after.start - before.end)) hole in its media at \(TextFormat.seconds(before.end))"
                    + (limit > 0 ? " (more than \(limits.named(.maxHole)))" : ""))
        }
        // Faults of the origin every viewer meets, counted against --max-origin-faults (0 by default: any).
        let faults = originProblems(m)
        let faultLimit = limits.maxOriginFaults
        if let faultLimit, faults.count > faultLimit {
            problems += faults
            if faultLimit > 0 {
                problems.append("has \(faults.count) origin faults in all (more than \(limits.named(.maxOriginFaults)))")
            }
        }
        if !problems.isEmpty {
            return (.degraded, "\(source) " + join(problems) + ".")
        }
        // Faults a team allowed: said, with the limit, so a pass never hides them.
        let allowed = faults.isEmpty ? "" : "; it " + join(faults)
            + " (\(faults.count) origin fault\(faults.count == 1 ? "" : "s"), within \(faultLimit == nil ? "--max-origin-faults none" : limits.named(.maxOriginFaults)))"
        // Slower than real time but within a relaxed --min-realtime-factor: said, with the limit.
        let speed = m.realtimeFactor.map {
            String(format: ", received at %.1fx real time", $0) + ($0 < 1 ? " (within \(limits.named(.minRealtimeFactor)))" : "")
        } ?? ""
        let span = m.sampled ? " during the \(TextFormat.seconds(m.sampledDuration)) sampled" : ""
        guard m.qoe.stallCount > 0 else {
            return (.pass, "\(source) started in \(TextFormat.seconds(startup)) and played without stalling\(span)\(speed)\(allowed).")
        }
        // Stalls the thresholds allow: said, with the limits they stayed within.
        let within = [VerdictThresholds.Name.maxStalls, .maxStallTime, .maxRebufferRatio].filter { limits[$0] != nil }
            .map { limits.named($0) }
        return (.pass, "\(source) started in \(TextFormat.seconds(startup)) and \(stallSummary(m.qoe)), within \(join(within))\(span)\(speed)\(allowed).")
    }

    /// What the origin failed to serve or keep up: broken variant playlists, refused resources, stale
    /// playlists, ignored blocking reloads, variants unlike their declaration, live DASH segments listed but
    /// not served; each a predicate of the source.
    private static func originProblems(_ m: Measurements) -> [String] {
        var problems: [String] = []
        // A variant playlist that failed: FFmpeg drops that variant and plays the others, as a player
        // would, but the playlist is broken for every viewer sent to it.
        var named: [String] = []
        for playlist in m.brokenPlaylists where !named.contains(playlist.url) {
            named.append(playlist.url)
            problems.append("lists a variant playlist it cannot serve (\(playlist.url) answered HTTP \(playlist.status))")
        }
        // A resource refused or skipped (a variant that sent nothing): FFmpeg played the others.
        for skipped in m.skippedResources {
            problems.append("leads to \(skipped.url), which \(skipped.why)")
        }
        // A live playlist that stops updating: the player runs dry once its buffer is played, even when the
        // sample ended before it stalled.
        for stale in m.stalePlaylists {
            problems.append(
                "has a playlist that stopped updating for more than \(HLSPlaylistHealth.staleFactorText) its target duration (\(stale.url), found at \(TextFormat.seconds(stale.at)))")
        }
        // LL-HLS: a server that declares CAN-BLOCK-RELOAD=YES but answers at once makes every player poll,
        // seconds further from the edge than the stream promises.
        if let ignored = m.ignoredBlockingReloads {
            problems.append(
                "ignores blocking playlist reloads (\(ignored.ignored) of \(ignored.made) _HLS_msn/_HLS_part requests to \(ignored.playlist) answered without the part asked for, although it declares CAN-BLOCK-RELOAD=YES; players fall back to polling, further from the live edge)")
        }
        // --all-variants: a variant that fails to load or open, or is not what the master declares, is
        // broken for every viewer sent to it, as a failed variant playlist is above.
        let mislabelled = m.variantProblems.filter { !$0.kinds.isEmpty }
        if !mislabelled.isEmpty {
            let list = mislabelled.map { entry in
                "variant \(entry.variant): " + entry.kinds.map(\.rawValue).joined(separator: ", ")
            }
            problems.append("has variants that are not what its master playlist declares (\(list.joined(separator: "; ")))")
        }
        // A live DASH segment listed and inside its availability window but not served: a hole for every
        // viewer at that point of the stream, even when this player skipped it.
        if let dash = m.dashLive, dash.counts[.missingSegment] > 0 {
            let first = dash.events.first { $0.kind == DASHLiveReport.Kind.missingSegment.rawValue }?.url ?? dash.manifest
            let count = dash.counts[.missingSegment]
            problems.append("did not serve \(count == 1 ? "a segment" : "\(count) segments") its live manifest lists as available (first: \(first))")
        }
        return problems
    }

    /// The stalls when they cross `--max-stalls` or `--max-stall-time`, each limit named beside its figure
    /// unless it is the default (any stall), whose sentence stays as it always was; `nil` within both.
    private static func stallProblem(_ m: Measurements) -> String? {
        let limits = m.thresholds
        let qoe = m.qoe
        guard let first = qoe.stalls.first else { return nil }
        let tooMany = qoe.stallCount > limits.maxStalls
        let tooLong = limits.maxStallTime.map { qoe.stallTime > $0 } ?? false
        guard tooMany || tooLong else { return nil }
        var text = "stalled \(times(qoe.stallCount))"
        if tooMany, limits.maxStalls > 0 { text += " (more than \(limits.named(.maxStalls)))" }
        text += " for \(TextFormat.seconds(qoe.stallTime)) in total ("
        if tooLong { text += "more than \(limits.named(.maxStallTime)); " }
        return text + "first at media time \(TextFormat.seconds(first.position)))"
    }

    /// `stalled once for 0.500 s in total`.
    private static func stallSummary(_ qoe: QoEReport) -> String {
        "stalled \(times(qoe.stallCount)) for \(TextFormat.seconds(qoe.stallTime)) in total"
    }

    private static func times(_ count: Int) -> String { count == 1 ? "once" : "\(count) times" }

    /// Sentences for the thresholds given that had nothing to be compared with (a latency limit for a
    /// stream whose latency was not measured): warnings, so that a gate does not pass in silence.
    package static func unmeasured(_ m: Measurements) -> [String] {
        guard m.failure == nil else { return [] }
        var sentences: [String] = []
        for (name, figure) in [(VerdictThresholds.Name.maxLatency, m.latencyMax), (.maxDrift, m.latencyDrift)]
        where m.thresholds[name] != nil && figure == nil {
            sentences.append(
                "\(m.thresholds.named(name)) was not applied: \(m.source)'s live latency was not measured (it is not live, never started playing, or its media maps to no clock).")
        }
        return sentences
    }

    private static func join(_ parts: [String]) -> String {
        guard parts.count > 1, let last = parts.last else { return parts.first ?? "" }
        return parts.dropLast().joined(separator: ", ") + " and " + last
    }
}
