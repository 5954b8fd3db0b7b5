import Foundation
import CheckEngine
import BufprobeOutput
import ProbeEngine

extension ProbeText {
    /// The buffering diagnostics as labelled rows, in plain words (empty label: continuation).
    static func diagnosticRows(_ report: ProbeReport) -> [(label: String, value: String)] {
        var rows: [(label: String, value: String)] = []
        // The input as given, so the printed fix can be pasted as it is.
        let name = TextFormat.shellQuoted(report.source)
        if !report.needs.isEmpty {
            rows.append(("needs", "to start within " + needsList(report.needs.map { ($0.startupDelay, $0.minBandwidthBps) })))
            var basis = "(a progressive download in file order; whole packets before they play"
            if let latency = report.needsBasis?.latency, latency > 0 { basis += "; \(seconds(latency)) latency per request" }
            rows.append(("", basis + ")"))
            if report.needs.contains(where: { $0.minBandwidthBpsRangeRequests != nil }) {
                rows.append((
                    "", "with range requests: " + needsList(report.needs.map { ($0.startupDelay, $0.minBandwidthBpsRangeRequests) })))
            }
        }
        let table = shownRows(report.bandwidthTable)
        if !table.isEmpty {
            rows.append(("startup", "wait before playing, at " + table.map { "\(TextFormat.bitRate($0.bandwidthBps)): \(seconds($0.startupDelay))" }
                .joined(separator: ", ")))
            if table.contains(where: { $0.startupDelayRangeRequests != nil }) {
                rows.append(("", "with range requests: " + table.compactMap { row in
                    row.startupDelayRangeRequests.map { "\(TextFormat.bitRate(row.bandwidthBps)): \(seconds($0))" }
                }.joined(separator: ", ")))
            }
        }
        switch report.faststart {
        case true?:
            rows.append(("fast start", "yes: the index (moov) comes before the media data, so playback can start from the first bytes."))
        case false?:
            let index = report.needsBasis?.indexBytes.map { " (\(TextFormat.bytes($0)))" } ?? ""
            rows.append(("fast start", "no. This MP4 has its index (moov) at the end: a sequential download cannot start"))
            rows.append(("", "before the whole file is in. A player that uses range requests (libavformat, so check"))
            rows.append(("", "and mpv; simulate's default --download ranges) pays two extra requests and the"))
            rows.append(("", "index\(index) before the first frame."))
            rows.append(("", "Fix: ffmpeg -i \(name) -c copy -movflags +faststart OUT.mp4"))
        case nil:
            break
        }
        if let skew = report.interleave {
            var text = "video and audio at most \(seconds(skew.maxSkewSeconds)) and \(TextFormat.bytes(skew.maxSkewBytes)) apart in the file"
            if skew.maxSkewSeconds > 1 {
                text += ": badly interleaved, a player must buffer that far ahead (remux with ffmpeg -i \(name) -c copy OUT)"
            }
            rows.append(("interleave", text))
        }
        if let profile = report.bitRateProfile, let average = profile.averageBps {
            let peaks = profile.peaks.compactMap { peak in
                peak.peakBps.map { value in
                    "\(TextFormat.bitRate(value)) over \(TextFormat.number(peak.window)) s"
                        + (peak.peakToAverage.map { String(format: " (%.2fx)", $0) } ?? "")
                }
            }
            rows.append(("bit rate", "average \(TextFormat.bitRate(average))" + (peaks.isEmpty ? "" : "; peak " + peaks.joined(separator: ", "))))
        }
        if let hls = report.hls {
            if let problem = hls.problem { rows.append(("segments", problem)) }
            for variant in hls.variants {
                var head = variant.uri
                if let bandwidth = variant.bandwidth { head += ": BANDWIDTH \(TextFormat.bitRate(Double(bandwidth)))" }
                if let average = variant.averageBitRate { head += ", measured average \(TextFormat.bitRate(average))" }
                if let peak = variant.peakSegmentBitRate { head += ", peak segment \(TextFormat.bitRate(peak))" }
                rows.append(("variant", head))
                rows.append(("", variant.segments.map { segment in
                    String(format: "%.1f s ", segment.duration) + TextFormat.bytes(segment.bytes)
                        + (segment.bitRate.map { " " + TextFormat.bitRate($0) } ?? "")
                }.joined(separator: ", ")))
                if variant.bandwidth != nil {
                    rows.append(("", variant.segmentsOverBandwidth.isEmpty
                        ? "every segment is within the declared BANDWIDTH"
                        : "segment(s) \(variant.segmentsOverBandwidth.map(String.init).joined(separator: ", ")) exceed the declared BANDWIDTH: players that trust it will stall"))
                }
                rows.append(("", "needs to start within " + needsList(variant.needs.map { ($0.startupDelay, $0.minBandwidthBps) })
                    + " (one request per segment)"))
            }
        }
        return rows
    }

    private static func needsList(_ needs: [(Double, Double?)]) -> String {
        needs.map { delay, rate in
            "\(TextFormat.number(delay)) s: " + (rate.map(TextFormat.bitRate) ?? "impossible (latency)")
        }.joined(separator: ", ")
    }

    // From the first bandwidth that starts within 10 minutes to the first that starts within 0.1 s.
    private static func shownRows(_ table: [ProbeReport.BandwidthRow]) -> [ProbeReport.BandwidthRow] {
        var shown: [ProbeReport.BandwidthRow] = []
        for row in table where row.startupDelay <= 600 {
            shown.append(row)
            if row.startupDelay <= 0.1 { break }
        }
        return shown
    }

    private static func seconds(_ value: Double) -> String {
        if value < 10 { return String(format: "%.2f s", value) }
        return value < 3600 ? String(format: "%.1f s", value) : TextFormat.seconds(value)
    }
}
