import Foundation
import PlaybackModel

/// The text form of a simulation, for people (the JSON form is for scripts).
enum SimulateText {
    /// The timeline's column header.
    static let header = "      time   position  event\n"

    /// The whole report: settings, timeline, and the summary.
    static func render(_ report: SimulateReport) -> String {
        var text = ""
        let source = report.source
        text += "media    \(source.description) (\(source.kind), \(TextFormat.seconds(source.duration)), "
        text += "\(TextFormat.bytes(source.bytes)), \(source.units) \(source.layout == "segmented" ? "segments" : "packets"))\n"
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
        text += "policy   start \(Seconds(policy.startThreshold).description), "
        text += "resume \(Seconds(policy.resumeThreshold).description), "
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
        case "gap_skipped": return String(format: "skipped a %.3f s hole in the media", value)
        case "end": return "playback ended"
        case "stuck": return "nothing more can happen: the simulation stops here"
        default: return event.type
        }
    }

    private static func summary(_ report: SimulateReport) -> String {
        var text = "startup delay  \(TextFormat.seconds(report.startupDelay))\(report.started ? "" : " (never started)")\n"
        text += "stalls         \(report.stallCount), \(TextFormat.seconds(report.stallTime)) in total"
        text += String(format: ", rebuffer ratio %.2f%%\n", report.rebufferRatio * 100)
        for stall in report.stalls {
            text += "               at \(TextFormat.seconds(stall.position)) for \(TextFormat.seconds(stall.duration))\n"
        }
        if !report.seeks.isEmpty {
            text += "seeks          \(report.seeks.count), \(TextFormat.seconds(report.seekWaitTime)) waited\n"
        }
        text += "played         \(TextFormat.seconds(report.played)) of \(TextFormat.seconds(report.source.duration))"
        text += report.ended ? ", ended\n" : ", did not reach the end\n"
        text += "session        \(TextFormat.seconds(report.sessionTime)), \(TextFormat.bytes(report.bytesReceived)) in \(report.requests) request\(report.requests == 1 ? "" : "s")\n"
        return text
    }
}
