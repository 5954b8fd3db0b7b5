import Foundation
import MediaIO
import CheckEngine
import BufprobeOutput
package import ProbeEngine

/// The human-readable `probe` summary. For people: wording and layout may change between versions;
/// scripts use `--json`.
package enum ProbeText {
    /// The summary of one report, ending with a newline.
    package static func render(_ report: ProbeReport) -> String {
        var lines: [String] = [report.source]
        func row(_ label: String, _ value: String) {
            lines.append("  " + label.padding(toLength: 11, withPad: " ", startingAt: 0) + " " + value)
        }
        if let error = report.error {
            row("error", error)
            return lines.joined(separator: "\n") + "\n"
        }
        if let format = report.format {
            row("container", "\(format.name) (\(format.longName))")
            var duration = format.duration.map(TextFormat.seconds) ?? "not declared"
            if let span = report.packetSpan {
                duration += "; packets span \(TextFormat.seconds(span.start)) to \(TextFormat.seconds(span.end))"
            }
            row("duration", duration)
            row("start", format.startTime.map(TextFormat.seconds) ?? "unknown")
            if ContainerFormat(demuxer: format.name).readsOtherResources {
                // The size and rate FFmpeg gives a playlist are the playlist text's, not the media's.
                row("playlist", format.size.map(TextFormat.bytes) ?? "size unknown")
            } else {
                var size = format.size.map(TextFormat.bytes) ?? "unknown"
                if let rate = format.bitRate { size += ", \(TextFormat.bitRate(Double(rate))) overall" }
                row("size", size)
            }
        }
        for stream in report.streams {
            row("stream \(stream.index)", describe(stream))
            row("", statistics(stream))
        }
        let from = report.playableStreams.map(String.init).joined(separator: "+")
        row("loaded", TextFormat.ranges(report.loadedRanges) + (from.isEmpty ? "" : " (streams \(from))"))
        if report.gaps.isEmpty {
            row("gaps", "none")
        } else {
            for gap in report.gaps {
                row("gap", "\(TextFormat.seconds(gap.start)) to \(TextFormat.seconds(gap.end)) (\(TextFormat.seconds(gap.duration)) missing)")
            }
        }
        for (label, value) in diagnosticRows(report) { row(label, value) }
        row("complete", report.complete ? "yes, read to the end in \(String(format: "%.2f", report.readTime)) s" : "no: reading stopped early")
        for warning in report.warnings { row("warning", warning) }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func describe(_ s: ProbeReport.Stream) -> String {
        var parts = ["\(s.type) \(s.codec)" + (s.profile.map { " (\($0))" } ?? "")]
        if let w = s.width, let h = s.height { parts.append("\(w)x\(h)") }
        if let pix = s.pixelFormat { parts.append(pix) }
        if let fps = s.frameRate { parts.append(String(format: "%.3g fps", fps)) }
        if let rate = s.sampleRate { parts.append("\(rate) Hz") }
        if let layout = s.channelLayout ?? s.channels.map({ "\($0) ch" }) { parts.append(layout) }
        if !s.disposition.isEmpty { parts.append("[\(s.disposition.joined(separator: ","))]") }
        return parts.joined(separator: " ")
    }

    private static func statistics(_ s: ProbeReport.Stream) -> String {
        var parts = ["\(s.packets) packets", TextFormat.bytes(s.bytes)]
        if let avg = s.averageBitRate { parts.append("avg \(TextFormat.bitRate(avg))") }
        if let peak = s.peakBitRate { parts.append("peak \(TextFormat.bitRate(peak)) (1 s)") }
        var keys = "\(s.keyframes) keyframes"
        if let k = s.keyframeInterval {
            keys += String(format: " every %.2f s (%.2f–%.2f)", k.avg, k.min, k.max)
        }
        if let frames = s.gopFrames {
            keys += frames.min == frames.max
                ? String(format: ", %.0f frames per GOP", frames.max)
                : String(format: ", %.0f–%.0f frames per GOP (avg %.1f)", frames.min, frames.max, frames.avg)
        }
        parts.append(keys)
        return parts.joined(separator: ", ")
    }
}
