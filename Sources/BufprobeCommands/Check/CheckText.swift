import Foundation

/// The human summary of one check (text output for people; `--json` is the stable form).
package enum CheckText {
    /// Renders `report` as a few indented lines, ending with a newline.
    package static func render(_ report: CheckReport) -> String {
        var out = "\(report.source)\n"
        out += "  verdict:     \(report.verdict.rawValue.uppercased()): \(report.reason)\n"
        func time(_ value: Double?) -> String { value.map(TextFormat.seconds) ?? "n/a" }
        out += "  timing:      open \(time(report.openTime)), first packet \(time(report.firstPacketTime)), startup \(time(report.startupDelay))\n"
        let throughput = report.throughputBps.map(TextFormat.bitRate) ?? "n/a"
        let factor = report.realtimeFactor.map { String(format: "%.2fx real time", $0) } ?? "n/a"
        let bytes = report.bytesReceived.map { " (\(TextFormat.bytes($0)))" } ?? ""
        out += "  received:    \(throughput)\(bytes), \(factor), sampled \(TextFormat.seconds(report.sampledDuration))\(report.live ? " (live)" : "")\n"
        let declared = report.declaredBitRate.map { "\(TextFormat.bitRate($0)) (\(report.declaredBitRateSource ?? "declared"))" } ?? "n/a"
        let measured = report.measuredBitRate.map(TextFormat.bitRate) ?? "n/a"
        let peak = report.peakBitRate.map(TextFormat.bitRate) ?? "n/a"
        out += "  bit rate:    declared \(declared), measured \(measured), peak \(peak) (1 s windows)\n"
        if report.stalls.isEmpty {
            out += "  stalls:      none\n"
        } else {
            let list = report.stalls.map { "at \(TextFormat.seconds($0.position)) for \(TextFormat.seconds($0.duration))" }
            out += "  stalls:      \(report.stallCount), \(TextFormat.seconds(report.stallTime)) in total: \(list.joined(separator: ", "))\n"
        }
        out += "  played:      \(played(report))\n"
        out += "  loaded:      \(TextFormat.ranges(report.loadedRanges))\n"
        for variant in report.variants {
            let size = variant.width.flatMap { w in variant.height.map { "\(w)x\($0)" } } ?? "audio"
            let bandwidth = variant.bandwidth.map { TextFormat.bitRate(Double($0)) } ?? "no BANDWIDTH"
            out += "  variant \(variant.index):   \(bandwidth), \(size), \(variant.codecs.joined(separator: "+"))\(variant.selected ? " (played)" : "")\n"
        }
        return out
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
