import Foundation
import PlaybackModel
import BufprobeOutput

/// The text form of a simulation, for people (the JSON form is for scripts).
package enum SimulateText {
    /// The timeline's column header.
    static let header = "      time   position  event\n"

    /// The whole report: settings, timeline, and the summary.
    package static func render(_ report: SimulateReport) -> String {
        var text = ""
        let source = report.source
        text += "media    \(source.description) (\(source.kind), \(TextFormat.seconds(source.duration)), "
        text += "\(TextFormat.bytes(source.bytes)), \(source.units) \(source.layout == "segmented" ? "segments" : "packets"))\n"
        for warning in report.warnings { text += "warning  \(warning)\n" }
        if let audio = source.audio { text += "audio    \(audio), fetched beside the video on the same link\n" }
        let network = report.network
        var networkLine = "network  "
        if let bandwidth = network.bandwidth {
            networkLine += TextFormat.bitRate(bandwidth)
        } else {
            networkLine += "trace \(network.trace ?? "?")"
        }
        networkLine += ", latency \(Seconds(network.latency).description)"
        if network.constrained { networkLine += ", constrained" }
        text += networkLine + "\n"
        let policy = report.policy
        text += "policy   "
        if let player = policy.player { text += "\(player): " }
        text += "start \(Seconds(policy.startThreshold).description), "
        text += "resume \(Seconds(policy.resumeThreshold).description), "
        if let cap = policy.resumeCap { text += "doubling per stall to \(Seconds(cap).description), " }
        text += "max buffer \(Seconds(policy.maxBuffer).description), "
        text += "back buffer \(Seconds(policy.backBuffer).description)\n\n"
        text += header
        for event in report.events { text += line(for: event) }
        text += "\n"
        text += summary(report)
        return text
    }

    /// One timeline line.
    static func line(for event: SimulateReport.Event) -> String {
        String(format: "%10.3f %10.3f  ", event.time, event.position) + describe(event) + "\n"
    }

    private static func describe(_ event: SimulateReport.Event) -> String {
        let value = event.value ?? 0
        switch event.type {
        case "session": return "session starts, play pressed"
        case "startup": return String(format: "playback starts (startup delay %.3f s)", value)
        case "stall_start": return "stall begins"
        case "audio_alone": return "picture freezes, audio plays on alone"
        case "stall_end": return String(format: "stall ends after %.3f s", value)
        case "seek": return String(format: "seek to %.3f", value)
        case "seek_complete": return String(format: "seek done after %.3f s", value)
        case "pause": return event.value.map { "pause for \(Seconds($0).description)" } ?? "pause"
        case "resume": return "resume"
        case "play": return "play pressed"
        case "rate": return "rate \(value)x"
        case "bandwidth": return "bandwidth \(TextFormat.bitRate(value))"
        case "outage_start": return "outage for \(Seconds(value).description)"
        case "outage_end": return "outage ends"
        case "latency": return "latency \(Seconds(value).description)"
        case "request": return "new request from byte \(Int64(value))"
        case "download_complete": return "download complete (\(TextFormat.bytes(Int64(value))) received)"
        case "switch": return "switch to the \(TextFormat.bitRate(value)) variant for the next segment"
        case "gap_skipped": return String(format: "skipped a %.3f s hole in the media", value)
        case "end": return "playback ended"
        case "stuck": return "nothing more can happen: the simulation stops here"
        default: return event.type
        }
    }

    private static func summary(_ report: SimulateReport) -> String {
        var text = "startup delay  \(TextFormat.seconds(report.startupDelay))\(report.started ? "" : " (never started)")\n"
        text += "stalls         \(report.stallCount), \(TextFormat.seconds(report.stallTime)) in total"
        // A session that never played has no ratio: 0% would read as perfect.
        text += report.rebufferRatio.map { String(format: ", rebuffer ratio %.2f%%\n", $0 * 100) } ?? ", no rebuffer ratio (never started)\n"
        for stall in report.stalls {
            text += "               at \(TextFormat.seconds(stall.position)) for \(TextFormat.seconds(stall.duration))\n"
        }
        if let frozen = report.frozenPictureTime {
            let alone = TextFormat.seconds(max(0, frozen - report.stallTime))
            text += "frozen picture \(TextFormat.seconds(frozen)): the stalls and \(alone) of audio playing on alone past the video's end\n"
        }
        if !report.seeks.isEmpty {
            text += "seeks          \(report.seeks.count), \(TextFormat.seconds(report.seekWaitTime)) waited\n"
        }
        text += "played         \(TextFormat.seconds(report.played)) of \(TextFormat.seconds(report.source.duration))"
        if !report.complete { text += " read" + (report.source.declaredDuration.map { " (\(TextFormat.seconds($0)) declared)" } ?? "") }
        text += report.ended ? ", ended\n" : ", did not reach the end\n"
        text += "session        \(TextFormat.seconds(report.sessionTime)), \(TextFormat.bytes(report.bytesReceived)) in \(report.requests) request\(report.requests == 1 ? "" : "s")\n"
        if let abr = report.abr { text += adaptive(abr) }
        return text
    }

    /// The adaptive part: rule, per-variant shares, switches and QoE.
    private static func adaptive(_ abr: SimulateReport.Abr) -> String {
        let p = abr.parameters
        // A player's own model is named by the player and version; its parameters are in --json.
        if abr.model != nil {
            let player = PlayerPreset(name: abr.rule)?.profile.playerName ?? abr.rule
            return adaptiveTail(abr, text: "abr            \(player): the player's own rule (docs/model.md)")
        }
        var text = "abr            \(abr.rule)"
        switch abr.rule {
        case "fixed": text += " (variant \(p.variant.map(String.init) ?? "?"))"
        case "throughput":
            let estimate = p.estimator == "ewma" ? "ewma \(p.ewmaHalfLives.map { Seconds($0).description }.joined(separator: "/"))" : "window \(p.window) segments"
            text += " (safety \(p.safetyFactor), \(estimate)\(p.insufficientBufferRule ? ", insufficient-buffer rule" : ""))"
        case "bola":
            text += " (bola-\(p.bolaVariant), buffer size \(Seconds(p.bolaBufferTarget).description), gamma*p \(p.bolaGammaP))"
        default:
            text += " (bola above \(Seconds(p.dynamicSwitchOn).description) buffered when it picks at least throughput's variant, throughput below \(Seconds(p.dynamicSwitchOff).description) when bola picks less)"
        }
        return adaptiveTail(abr, text: text)
    }

    /// The adaptive part after the rule: switch count, per-variant shares, each switch and QoE.
    private static func adaptiveTail(_ abr: SimulateReport.Abr, text head: String) -> String {
        var text = head
        text += ", \(abr.switchCount) switch\(abr.switchCount == 1 ? "" : "es")"
        if abr.abandon { text += ", \(abr.abandoned) segment request\(abr.abandoned == 1 ? "" : "s") abandoned" }
        text += "\n"
        for use in abr.variants {
            text += "  variant \(use.variant)   \(TextFormat.bitRate(use.bitRate)): played \(TextFormat.seconds(use.playedTime)), "
            text += "\(TextFormat.bytes(use.playedBytes)); fetched \(use.segments) segments, \(TextFormat.bytes(use.bytes))\n"
        }
        for change in abr.switches {
            text += String(format: "  %10.3f  ", change.time)
            text += "segment \(change.segment): variant \(change.from) -> \(change.to) (\(TextFormat.bitRate(change.toBitRate))): \(change.reason)\n"
        }
        text += "average rate   \(TextFormat.bitRate(abr.averageBitRate)) played\n"
        let q = abr.qoe
        text += String(format: "qoe            %.3f = %.3f - %g x %.3f - %g x %.3f s / %d segments\n", q.score,
            q.averageBitRateKbps, q.switchWeight, q.switchMagnitudeKbps, q.stallWeight, q.stallTime, q.segments)
        text += "               \(q.formula)\n"
        return text
    }
}
