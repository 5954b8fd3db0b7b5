import Foundation
import BufprobeOutput
import ValidateEngine

/// `validate`'s text report: the findings grouped MUST FIX / SHOULD FIX with counts (as hlsreport groups
/// them), then the measured table per variant, then what the bounds left unread.
enum ValidateText {
    /// The report as text (ends with a newline).
    static func render(_ report: ValidationReport) -> String {
        var out = "bufprobe validate \(report.source)\n"
        let unit = report.format == .dash ? "representation" : "media playlist"
        out += "\(report.playlists) \(unit)\(report.playlists == 1 ? "" : "s"), \(report.segmentsRead) segments read"
        out += " (\(TextFormat.bytes(report.bytesRead))) in \(TextFormat.seconds(report.seconds)); \(report.rulesChecked.count) rules checked\n"
        for (title, findings) in [("MUST FIX", report.mustFix), ("SHOULD FIX", report.shouldFix)] {
            out += "\n\(title) (\(findings.count))\n"
            if findings.isEmpty { out += "  none\n" }
            // The HLS ids fit in 16 columns; a longer DASH one (iso23009-1:5.3.3.2@segmentAlignment) widens them.
            let width = max(16, findings.map(\.rule.count).max() ?? 0)
            for finding in findings {
                out += "  \(finding.rule.padding(width)) \(finding.message)\n"
                out += "  \("".padding(width)) \(finding.where.joined(separator: " "))\n"
            }
        }
        out += "\nMeasured\n"
        let rows = table(report)
        let header = rows[0]
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            out += "  " + row.enumerated().map { $0.offset == row.count - 1 ? $0.element : $0.element.padding(widths[$0.offset]) }
                .joined(separator: "  ") + "\n"
        }
        if !report.notRead.isEmpty {
            out += "\nNot read\n"
            for sentence in report.notRead { out += "  \(sentence)\n" }
        }
        return out
    }

    private static func rate(_ value: Double?) -> String { value.map(TextFormat.bitRate) ?? "-" }

    /// The measured table, its header first: per variant for HLS, per representation for DASH (the HTML
    /// page draws the same cells).
    static func table(_ report: ValidationReport) -> [[String]] { report.format == .dash ? dashRows(report) : hlsRows(report) }

    /// The measured table of an HLS stream, one row per variant, its header first.
    private static func hlsRows(_ report: ValidationReport) -> [[String]] {
        var rows = [["#", "BANDWIDTH", "AVERAGE-BW", "PEAK", "AVERAGE", "RESOLUTION", "VIDEO", "SEGMENTS", "CODECS", "PLAYLIST"]]
        for row in report.variants {
            rows.append([
                row.number == 0 ? "-" : String(row.number), rate(row.bandwidth.map(Double.init)), rate(row.averageBandwidth.map(Double.init)),
                rate(row.measuredPeak), rate(row.measuredAverage), row.resolution ?? "-", row.measuredResolution ?? "-",
                "\(row.segmentsRead)/\(row.segmentsListed)", row.codecs ?? "-", row.uri,
            ])
        }
        return rows
    }

    /// The measured table of a DASH MPD, one row per representation: `@bandwidth` beside the rate its media
    /// needs (the leaky bucket with `@minBufferTime`) and its average, then sizes and frame rates declared and read.
    private static func dashRows(_ report: ValidationReport) -> [[String]] {
        var rows = [["#", "ID", "BANDWIDTH", "NEEDED", "AVERAGE", "SIZE", "VIDEO", "FRAMERATE", "FPS", "SEGMENTS", "CODECS"]]
        for row in report.variants {
            rows.append([
                String(row.number), row.id ?? "-", rate(row.bandwidth.map(Double.init)), rate(row.neededBandwidth), rate(row.measuredAverage),
                row.resolution ?? "-", row.measuredResolution ?? "-", row.frameRate ?? "-",
                row.measuredFrameRate.map { String(format: "%g", $0) } ?? "-", "\(row.segmentsRead)/\(row.segmentsListed)", row.codecs ?? "-",
            ])
        }
        return rows
    }
}

extension String {
    /// The string padded with spaces to `width` characters.
    fileprivate func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
