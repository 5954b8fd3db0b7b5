package import CheckEngine
import MediaIO
import Prometheus

/// The one mapping from a `CheckReport` to the metrics `GET /probe` answers, in the Prometheus text
/// format (swift-prometheus writes it and escapes label values). Names follow Prometheus's conventions,
/// as `promtool check metrics` holds them: base units (seconds, bytes, bytes per second) in the name, and no
/// `_total`, which is a counter's suffix (a user would `rate()` it). A value the
/// report leaves `null` (no startup, nothing received, no declared rate) is left out, never written as 0;
/// so is a value that is not finite.
///
/// Every metric is a gauge: each answer describes one check, not a running count. The live playlist's
/// metrics are written only for a live HLS check (`playlist_health` is `null` otherwise), the variants'
/// only with `all_variants=true` (`variant_checks` is `null` otherwise).
package enum ProbeMetrics {
    /// One plain metric: its name, help text and value in a report.
    package struct Gauge: Sendable {
        /// The metric name.
        package var name: String
        /// The `# HELP` text.
        package var help: String
        /// The value, `nil` when the report has none.
        package var value: @Sendable (CheckReport) -> Double?
    }

    /// The unlabelled metrics, in the order the README lists them.
    package static let gauges: [Gauge] = [
        Gauge(name: "bufprobe_probe_success", help: "1 when the check played the target (verdict pass or degraded), 0 when it failed.") {
            $0.verdict == .fail ? 0 : 1
        },
        Gauge(name: "bufprobe_open_seconds", help: "Seconds to open the target and read its stream information.") { $0.openTime },
        Gauge(name: "bufprobe_first_packet_seconds", help: "Seconds from the start of the check to the first packet.") {
            $0.firstPacketTime
        },
        Gauge(name: "bufprobe_startup_delay_seconds", help: "Seconds until the player could start, opening included; absent when it never started.") {
            $0.startupDelay
        },
        Gauge(name: "bufprobe_stalls", help: "Stalls during the check.") { Double($0.stallCount) },
        Gauge(name: "bufprobe_stall_seconds", help: "Seconds stalled during the check.") { $0.stallTime },
        Gauge(name: "bufprobe_holes_skipped", help: "Holes in the media the player jumped (a freeze or a jump for viewers).") {
            Double($0.skippedHoles.count)
        },
        Gauge(name: "bufprobe_rebuffer_ratio", help: "Stall time over stall time plus played time (0 to 1); absent when playback never started.") { $0.rebufferRatio },
        Gauge(name: "bufprobe_throughput_bytes_per_second", help: "Bytes received per second, from the start of the check to the last packet.") {
            $0.throughputBps.map(bytes)
        },
        Gauge(name: "bufprobe_realtime_factor", help: "Media seconds received per wall-clock second (below 1: slower than real time).") {
            $0.realtimeFactor
        },
        Gauge(name: "bufprobe_declared_rate_bytes_per_second", help: "The declared bit rate (HLS BANDWIDTH, DASH bandwidth or the container's), in bytes per second.") {
            $0.declaredBitRate.map(bytes)
        },
        Gauge(name: "bufprobe_measured_rate_bytes_per_second", help: "Average rate of the played streams' packets over their media time, in bytes per second.") {
            $0.measuredBitRate.map(bytes)
        },
        Gauge(name: "bufprobe_peak_rate_bytes_per_second", help: "Highest rate of the played streams in any 1 s window of media time, in bytes per second.") {
            $0.peakBitRate.map(bytes)
        },
        Gauge(name: "bufprobe_played_seconds", help: "Media seconds the player played.") { $0.played },
        Gauge(name: "bufprobe_buffered_ahead_seconds", help: "Seconds loaded ahead of the playhead when the check ended.") { $0.bufferedAhead },
        Gauge(name: "bufprobe_sampled_seconds", help: "Seconds the target was received for.") { $0.sampledDuration },
        Gauge(name: "bufprobe_received_bytes", help: "Bytes received.") { $0.bytesReceived.map(Double.init) },
        Gauge(name: "bufprobe_media_duration_seconds", help: "The media's declared duration; absent for a live stream.") { $0.duration },
        Gauge(name: "bufprobe_live", help: "1 when the target has no declared end (a live stream).") { $0.live ? 1 : 0 },
        Gauge(name: "bufprobe_complete", help: "1 when the whole media was received.") { $0.complete ? 1 : 0 },
        Gauge(name: "bufprobe_live_latency_seconds", help: "Seconds behind the live edge when the check ended (the stream clock minus the capture time of the media at the playhead); absent unless the live media maps to a clock.") {
            $0.liveLatency?.atEnd
        },
        Gauge(name: "bufprobe_live_edge_delay_seconds", help: "Seconds the newest media the origin listed was behind the clock at the last look (encoder, packager and CDN delay).") {
            $0.liveLatency?.edgeDelay
        },
        Gauge(name: "bufprobe_live_hold_back_seconds", help: "Seconds behind the live edge the player started (the hold-back applied).") {
            $0.liveLatency?.holdBack.applied
        },
        Gauge(name: "bufprobe_live_latency_drift_seconds", help: "Latency at the end minus latency at the start: how far the viewer fell behind during the check.") {
            $0.liveLatency?.drift
        },
        Gauge(name: "bufprobe_warnings", help: "Problems the check noted that did not decide the verdict (FFmpeg errors, skipped resources).") {
            Double($0.warnings.count)
        },
    ]

    /// A report's bits per second as bytes per second, Prometheus's base unit.
    private static func bytes(_ bitsPerSecond: Double) -> Double { bitsPerSecond / 8 }

    /// The exposition of `report`; `probeSeconds` is the wall-clock time the exporter spent on the check.
    /// Families come in this file's order, so that the answer reads the same way every time.
    package static func exposition(of report: CheckReport, probeSeconds: Double) -> String {
        var text = family("bufprobe_probe_duration_seconds", "Wall-clock seconds the exporter spent on this check.", [([], probeSeconds)])
        for gauge in gauges {
            if let value = gauge.value(report) { text += family(gauge.name, gauge.help, [([], value)]) }
        }
        text += family(
            "bufprobe_verdict", "1 for the check's verdict (pass, degraded, fail), 0 for the others.",
            [CheckVerdict.pass, .degraded, .fail].map { ([("verdict", $0.rawValue)], report.verdict == $0 ? 1 : 0) })
        // The limits the verdict was decided against, so that a dashboard can draw them beside the figures
        // (a threshold not limited is left out).
        if let thresholds = report.settings.thresholds {
            text += family(
                "bufprobe_verdict_threshold",
                "The verdict's limits in force, per threshold: max_stalls (count), max_stall_time (seconds), max_rebuffer_ratio (0 to 1), max_startup, max_latency, max_drift (seconds), min_realtime_factor (ratio, 0: none), max_peak_over_bandwidth (0.1: 10%), max_hole (seconds), max_origin_faults (count); absent when not limited.",
                VerdictThresholds.Name.allCases.compactMap { name in thresholds[name].map { ([("threshold", name.rawValue)], $0) } })
        }
        if let health = report.playlistHealth {
            // Every kind is written (0 included), so that an alert on one kind has a series to compare.
            text += family("bufprobe_playlist_reloads", "Reloads of the live HLS media playlist the check watched.", [([], Double(health.reloads))])
            text += family(
                "bufprobe_playlist_problems", "Live HLS playlist problems found across the reloads, per kind (every kind written).",
                HLSPlaylistHealth.Kind.allCases.map { ([("kind", $0.rawValue)], Double(health.counts[$0])) })
        }
        if let latency = report.liveLatency {
            let stats: [(String, Double?)] = [("at_start", latency.atStart), ("min", latency.min), ("mean", latency.mean), ("max", latency.max)]
            text += family(
                "bufprobe_live_latency_stat_seconds", "Latency to the live edge over the check, per statistic (at_start, min, time-averaged mean, max).",
                stats.compactMap { name, value in value.map { ([("stat", name)], $0) } })
        }
        if let dash = report.dashLive {
            // Every kind is written (0 included), so that an alert on one kind has a series to compare.
            text += family("bufprobe_dash_mpd_reloads", "Reloads of the live DASH manifest the player made after its first read.", [([], Double(dash.mpdReloads))])
            text += family("bufprobe_dash_segments_requested", "Segment requests the player sent for the live DASH stream.", [([], Double(dash.segmentsRequested))])
            text += family(
                "bufprobe_dash_clock_offset_seconds", "Seconds the live DASH stream's clock (UTCTiming) was ahead of this machine's; 0 on this machine's clock.",
                [([("clock", dash.clock)], dash.clockOffset)])
            text += family(
                "bufprobe_dash_problems", "Live DASH problems, per kind (every kind written): missing_segment also makes the verdict degraded.",
                DASHLiveReport.Kind.allCases.map { ([("kind", $0.rawValue)], Double(dash.counts[$0])) })
        }
        if let low = report.lowLatency {
            // LL-HLS played part by part: blocking reloads and the spec's rules, every kind written.
            text += family(
                "bufprobe_llhls_blocking_reloads", "LL-HLS blocking playlist reloads (_HLS_msn/_HLS_part) by result: held (answered with the part asked for) or ignored (answered at once without it; makes the verdict degraded).",
                [([("result", "held")], Double(low.blockingReloadsHeld)), ([("result", "ignored")], Double(low.blockingReloadsIgnored))])
            let holds: [(String, Double?)] = [("min", low.holdMin), ("mean", low.holdMean), ("max", low.holdMax)]
            text += family(
                "bufprobe_llhls_blocking_reload_seconds", "Seconds the server held each LL-HLS blocking reload, per statistic (min, mean, max).",
                holds.compactMap { name, value in value.map { ([("stat", name)], $0) } })
            text += family("bufprobe_llhls_parts_played", "LL-HLS parts the player fetched and played.", [([], Double(low.partsPlayed))])
            if let target = low.partTarget {
                text += family("bufprobe_llhls_part_target_seconds", "The playlist's PART-TARGET.", [([], target)])
            }
            if let holdBack = low.partHoldBack {
                text += family("bufprobe_llhls_part_hold_back_seconds", "The playlist's PART-HOLD-BACK.", [([], holdBack)])
            }
            text += family(
                "bufprobe_llhls_problems", "LL-HLS problems found, per kind (every kind written).",
                LowLatencyMonitor.Kind.allCases.map { ([("kind", $0.rawValue)], Double(low.counts[$0])) })
        }
        if let checks = report.variantChecks {
            text += family("bufprobe_variants_validated", "HLS variants validated against their master (all_variants=true).", [([], Double(checks.count))])
            let samples = checks.flatMap { check in
                VariantCheck.Kind.allCases.map { kind in
                    ([("variant", String(check.index)), ("kind", kind.rawValue)], Double(check.problems.filter { $0.kind == kind }.count))
                }
            }
            text += family(
                "bufprobe_variant_problems", "Disagreements between a variant and its master's attributes, per variant (0-based) and kind (every kind written).",
                samples)
        }
        // Every reason is written (0 included): an alert on refusals needs a series to compare.
        text += family(
            "bufprobe_refused_requests",
            "Requests the check did not make because the exporter's policy refused them (--allow-target, --deny-private), per reason; each is a warning naming the URL.",
            RequestPolicy.Reason.allCases.map { ([("reason", $0.rawValue)], Double(report.refusedRequests?[$0] ?? 0)) })
        var info = [("target", report.source)]
        if let format = report.format { info.append(("format", format)) }
        info.append(("version", report.bufprobeVersion))
        text += family("bufprobe_probe_info", "Always 1; labels: the target, the demuxer that read it, bufprobe's version.", [(info, 1)])
        return text
    }

    /// One metric family: its samples, label sets in the order given, non-finite values left out (the
    /// validation's metrics too).
    package static func family(_ name: String, _ help: String, _ samples: [(labels: [(String, String)], value: Double)]) -> String {
        // One registry per sample: a registry writes its families, and a family its label sets, in hash
        // order (per dictionary instance, so it changed from one scrape to the next), and the answer reads
        // better (and diffs) in a fixed one. The first sample's text brings the # HELP and # TYPE lines;
        // the others add their sample line only. The names carry their unit already, hence no unitName.
        let descriptor = MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
        var text = ""
        for sample in samples where sample.value.isFinite {
            let registry = PrometheusCollectorRegistry()
            registry.makeGauge(descriptor: descriptor, labels: sample.labels).set(sample.value)
            let exposition = registry.emitToString()
            text += text.isEmpty
                ? exposition
                : exposition.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0 + "\n" }.joined()
        }
        return text
    }
}
