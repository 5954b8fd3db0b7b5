import Foundation
import MediaIO
import BufprobeOutput

/// The human summary of one check (text output for people; `--json` is the stable form).
///
/// Only what was measured is printed: a check that failed before any data arrived is its verdict and
/// reason (and the open time, if opening finished), not a column of `n/a`; stalls are listed once the
/// player started.
package enum CheckText {
    /// Renders `report` as a few indented lines, ending with a newline.
    package static func render(_ report: CheckReport) -> String {
        var out = "\(report.source)\n"
        out += "  verdict:     \(report.verdict.rawValue.uppercased()): \(report.reason)\n"
        if report.interrupted == true {
            out += "  interrupted: stopped after \(TextFormat.seconds(report.sampledDuration)); the figures below cover what was measured until then\n"
        }
        var timing: [String] = []
        if let open = report.openTime { timing.append("open \(TextFormat.seconds(open))") }
        if let first = report.firstPacketTime { timing.append("first packet \(TextFormat.seconds(first))") }
        if let startup = report.startupDelay {
            timing.append("startup \(TextFormat.seconds(startup))")
        } else if report.firstPacketTime != nil {
            timing.append("playback never started")
        }
        if !timing.isEmpty { out += "  timing:      \(timing.joined(separator: ", "))\n" }
        let receivedAnything = report.firstPacketTime != nil || (report.bytesReceived ?? 0) > 0
        if receivedAnything {
            var received: [String] = []
            if let throughput = report.throughputBps {
                received.append(TextFormat.bitRate(throughput) + (report.bytesReceived.map { " (\(TextFormat.bytes($0)))" } ?? ""))
            } else if let bytes = report.bytesReceived {
                received.append(TextFormat.bytes(bytes))
            }
            if let factor = report.realtimeFactor { received.append(String(format: "%.2fx real time", factor)) }
            received.append("sampled \(TextFormat.seconds(report.sampledDuration))\(report.live ? " (live)" : "")")
            out += "  received:    \(received.joined(separator: ", "))\n"
        }
        var rates: [String] = []
        if let declared = report.declaredBitRate {
            rates.append("declared \(TextFormat.bitRate(declared)) (\(report.declaredBitRateSource ?? "declared"))")
        }
        if let measured = report.measuredBitRate { rates.append("measured \(TextFormat.bitRate(measured))") }
        if let peak = report.peakBitRate { rates.append("peak \(TextFormat.bitRate(peak)) (1 s windows)") }
        if !rates.isEmpty { out += "  bit rate:    \(rates.joined(separator: ", "))\n" }
        if !report.stalls.isEmpty {
            let list = report.stalls.map { "at \(TextFormat.seconds($0.position)) for \(TextFormat.seconds($0.duration))" }
            out += "  stalls:      \(report.stallCount), \(TextFormat.seconds(report.stallTime)) in total: \(list.joined(separator: ", "))\n"
        } else if report.startupDelay != nil {
            out += "  stalls:      none\n"
        }
        if report.startupDelay != nil { out += "  played:      \(played(report))\n" }
        if let latency = report.liveLatency {
            out += liveLatency(latency)
        } else if report.live, report.startupDelay != nil, report.format == "hls" {
            out += "  latency:     not measured: the playlist maps no media to the clock (no EXT-X-PROGRAM-DATE-TIME)\n"
        }
        if receivedAnything { out += "  loaded:      \(TextFormat.ranges(report.loadedRanges))\n" }
        if !report.skippedHoles.isEmpty { out += "  jumped:      \(TextFormat.ranges(report.skippedHoles))\n" }
        for variant in report.variants {
            let size = variant.width.flatMap { w in variant.height.map { "\(w)x\($0)" } } ?? "audio"
            let bandwidth = variant.bandwidth.map { TextFormat.bitRate(Double($0)) } ?? "no BANDWIDTH"
            out += "  variant \(variant.index):   \(bandwidth), \(size), \(variant.codecs.joined(separator: "+"))\(variant.selected ? " (played)" : variant.fetched == .opening ? " (read while opening only: playlist, first segments)" : "")\n"
        }
        if let checks = report.variantChecks {
            // Why some or all variants were not validated, and each problem's sentence, are warnings below.
            out += variantTable(checks, segments: report.settings.allVariantsSegments)
        }
        if let health = report.playlistHealth { out += playlist(health) }
        if let dash = report.dashLive { out += dashLive(dash) }
        if let lowLatency = report.lowLatency { out += self.lowLatency(lowLatency) }
        // Every warning of the JSON document (FFmpeg's problems, refused resources, playlist events), as
        // `probe` prints its own; before any data arrived the reason is the sentence made of them.
        if receivedAnything {
            for warning in report.warnings { out += "  warning:     \(warning)\n" }
        }
        return out
    }

    /// `live_latency` in two lines: the figures over the sample, then where they come from.
    static func liveLatency(_ latency: CheckReport.LiveLatency) -> String {
        func figure(_ value: Double?) -> String { value.map(TextFormat.seconds) ?? "n/a" }
        var out = "  latency:     "
        if latency.samples > 0 {
            out += "\(figure(latency.atStart)) at start, \(figure(latency.atEnd)) at end (min \(figure(latency.min)), mean \(figure(latency.mean)), max \(figure(latency.max)))"
        } else {
            out += "not measured (playback never started)"
        }
        out += "\n"
        var source: [String] = []
        if let applied = latency.holdBack.applied {
            var text = "started \(TextFormat.seconds(applied)) behind the edge"
            if let target = latency.holdBack.target, let rule = latency.holdBack.rule {
                text += " (target \(TextFormat.seconds(target)), \(rule))"
            }
            source.append(text)
        }
        if let edge = latency.edgeDelay { source.append("edge delay \(TextFormat.seconds(edge))") }
        let clock = latency.clock == "system" ? "this machine's clock" : latency.clock
        source.append("\(latency.basis == "program_date_time" ? "EXT-X-PROGRAM-DATE-TIME" : "availability times") against \(clock)")
        out += "               \(source.joined(separator: "; "))\n"
        return out
    }

    /// `--all-variants`: one row per variant, declared against measured, then OK or its problem kinds;
    /// the problems' sentences are the report's warnings, printed after it.
    static func variantTable(_ checks: [VariantCheck], segments: Int?) -> String {
        guard !checks.isEmpty else { return "  all variants: none validated\n" }
        var out = "  all variants (declared -> measured; bit rates over the first \(segments ?? VariantProber.defaultSegments) segments):\n"
        for check in checks {
            let d = check.declared
            let m = check.measured
            let declaredSize = d.resolution ?? "-"
            let measuredSize = m.width.flatMap { w in m.height.map { "\(w)x\($0)" } } ?? "-"
            let declaredCodecs = d.codecs ?? "-"
            let measuredCodecs = m.codecs.isEmpty ? "-" : m.codecs.map { codec in
                codec.codec + (codec.profile.map { " \($0)" } ?? "") + (codec.level.map { " L\($0)" } ?? "")
            }.joined(separator: "+")
            let declaredRate = d.frameRate.map { TextFormat.number($0) + " fps" } ?? "-"
            let measuredRate = m.frameRate.map { TextFormat.number($0) + " fps" } ?? "-"
            let peak = m.peakBitRate.map { "peak " + TextFormat.bitRate($0) } ?? "peak -"
            let average = m.averageBitRate.map { "avg " + TextFormat.bitRate($0) } ?? "avg -"
            let declaredAverage = d.averageBandwidth.map { " avg " + TextFormat.bitRate(Double($0)) } ?? ""
            let verdict = check.problems.isEmpty ? "OK" : check.problemKinds.map(\.rawValue).joined(separator: ", ")
            out += "    \(check.index) \(check.uri): \(verdict)\n"
            out += "      resolution \(declaredSize) -> \(measuredSize); codecs \(declaredCodecs) -> \(measuredCodecs); frame rate \(declaredRate) -> \(measuredRate)\n"
            out += "      bandwidth \(TextFormat.bitRate(Double(d.bandwidth)))\(declaredAverage) -> \(peak), \(average) (\(m.segmentsMeasured) segments)\n"
        }
        return out
    }

    /// The live playlist's line: URL, reloads, problems by kind (each problem is also a warning).
    static func playlist(_ health: CheckReport.PlaylistHealth) -> String {
        let found = HLSPlaylistHealth.Kind.allCases.compactMap { kind in
            health.counts[kind] > 0 ? "\(health.counts[kind]) \(kind.rawValue)" : nil
        }
        let reloads = "\(health.reloads) load\(health.reloads == 1 ? "" : "s") seen"
        return "  playlist:    \(health.url ?? "no reload seen"), \(reloads), \(found.isEmpty ? "no problems" : found.joined(separator: ", "))\n"
    }

    /// The live DASH line: manifest, clock, reloads, segments requested, problems by kind (each problem is
    /// also a warning).
    static func dashLive(_ dash: DASHLiveReport) -> String {
        let found = DASHLiveReport.Kind.allCases.compactMap { kind in
            dash.counts[kind] > 0 ? "\(dash.counts[kind]) \(kind.rawValue)" : nil
        }
        let offset = dash.clock == "system" ? "" : String(format: " (%+.3f s)", dash.clockOffset)
        let period = dash.minimumUpdatePeriod.map { " (minimumUpdatePeriod \(TextFormat.seconds($0)))" } ?? ""
        return "  dash live:   \(dash.manifest), clock \(dash.clock)\(offset), \(dash.mpdReloads) reload\(dash.mpdReloads == 1 ? "" : "s")\(period), \(dash.segmentsRequested) segment requests, \(found.isEmpty ? "no problems" : found.joined(separator: ", "))\n"
    }

    /// The LL-HLS line: part target and hold-back, blocking reloads held or ignored and their times, parts
    /// played, problems by kind (each problem is also a warning).
    static func lowLatency(_ section: CheckReport.LowLatencyReport) -> String {
        let found = LowLatencyMonitor.Kind.allCases.compactMap { kind in
            section.counts[kind] > 0 ? "\(section.counts[kind]) \(kind.rawValue)" : nil
        }
        let target = section.partTarget.map { "PART-TARGET \(TextFormat.seconds($0))" } ?? "no PART-TARGET"
        let holdBack = section.partHoldBack.map { "PART-HOLD-BACK \(TextFormat.seconds($0))" } ?? "no PART-HOLD-BACK"
        var hold = ""
        if let low = section.holdMin, let mean = section.holdMean, let high = section.holdMax {
            hold = " (held \(TextFormat.seconds(low))/\(TextFormat.seconds(mean))/\(TextFormat.seconds(high)) min/mean/max)"
        }
        let reloads = "\(section.blockingReloads) blocking reloads, \(section.blockingReloadsHeld) held, \(section.blockingReloadsIgnored) ignored\(hold)"
        return "  low latency: \(target), \(holdBack); \(reloads); \(section.partsPlayed) parts played; \(found.isEmpty ? "no problems" : found.joined(separator: ", "))\n"
    }

    /// What `played` means for this check. A VOD input whose data all arrived before the player got that
    /// far is not waited for in real time: the player plays out its buffer on its own clock (nothing can
    /// stall any more), so `played` can be the whole media after a fraction of a second.
    static func played(_ report: CheckReport) -> String {
        let played = TextFormat.seconds(report.played)
        let sampled = TextFormat.seconds(report.sampledDuration)
        guard !report.live, report.complete, report.verdict != .fail, report.played > report.sampledDuration else {
            return "\(played) of media in \(sampled) sampled"
        }
        return "\(played) (all data in after \(sampled); the rest played out from the buffer, no real-time wait)"
    }
}
