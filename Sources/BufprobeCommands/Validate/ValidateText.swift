import BufprobeOutput
import ValidateEngine

/// `validate`'s text report: the findings grouped MUST FIX / SHOULD FIX with counts (as hlsreport groups
/// them), then the measured table per variant, then what the bounds left unread.
enum ValidateText {
    /// The report as text (ends with a newline).
    static func render(_ report: ValidationReport) -> String {
        var out = "bufprobe validate \(report.source)\n"
        out += "\(report.playlists) media playlist\(report.playlists == 1 ? "" : "s"), \(report.segmentsRead) segments read"
        out += " (\(TextFormat.bytes(report.bytesRead))) in \(TextFormat.seconds(report.seconds)); \(report.rulesChecked.count) rules checked\n"
        for (title, findings) in [("MUST FIX", report.mustFix), ("SHOULD FIX", report.shouldFix)] {
            out += "\n\(title) (\(findings.count))\n"
            if findings.isEmpty { out += "  none\n" }
            for finding in findings {
                out += "  \(finding.rule.padding(16)) \(finding.message)\n"
                out += "  \("".padding(16)) \(finding.where.joined(separator: " "))\n"
            }
        }
        out += "\nMeasured\n"
        let header = ["#", "BANDWIDTH", "AVERAGE-BW", "PEAK", "AVERAGE", "RESOLUTION", "VIDEO", "SEGMENTS", "CODECS", "PLAYLIST"]
        var rows = [header]
        for row in report.variants {
            rows.append([
                row.number == 0 ? "-" : String(row.number), rate(row.bandwidth.map(Double.init)), rate(row.averageBandwidth.map(Double.init)),
                rate(row.measuredPeak), rate(row.measuredAverage), row.resolution ?? "-", row.measuredResolution ?? "-",
                "\(row.segmentsRead)/\(row.segmentsListed)", row.codecs ?? "-", row.uri,
            ])
        }
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
}

extension String {
    /// The string padded with spaces to `width` characters.
    fileprivate func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
