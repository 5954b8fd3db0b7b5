import Foundation
package import BufprobeOutput

/// The `bufprobe simulate --trace-dir DIR --json` document: one full simulate report per trace file (in
/// file-name order) and the totals over them.
package struct SimulateBatchReport: Sendable, Codable, Hashable {
    /// Version of this JSON layout.
    package var schemaVersion = 1
    /// The folder of traces.
    package var traceDir: String
    /// One row per trace.
    package var traces: [Row]
    /// Over every trace.
    package var totals: Totals

    /// One trace's run.
    package struct Row: Sendable, Codable, Hashable {
        /// The trace file.
        package var trace: String
        /// The same document `simulate --trace FILE --json` writes.
        package var report: SimulateReport

        /// The row of `trace`'s run.
        package init(trace: String, report: SimulateReport) {
            self.trace = trace
            self.report = report
        }
    }

    /// Totals and means over the traces.
    package struct Totals: Sendable, Codable, Hashable {
        /// Traces run.
        package var traces: Int
        /// Traces whose session had at least one stall.
        package var tracesWithStalls: Int
        /// Stalls, summed.
        package var stallCount: Int
        /// Seconds stalled, summed.
        package var stallTime: Double
        /// Mean startup delay, seconds.
        package var meanStartupDelay: Double
        /// Mean rebuffer ratio over the traces whose session started; `null` when none did.
        @NullEncoded package var meanRebufferRatio: Double?
        /// With `--abr`: mean average bit rate (bits/s), mean QoE, switches summed; `null` otherwise.
        @NullEncoded package var meanAverageBitRate: Double?
        /// Mean QoE score, or `null` without `--abr`.
        @NullEncoded package var meanQoe: Double?
        /// Switches summed, or `null` without `--abr`.
        @NullEncoded package var switchCount: Int?
    }

    /// Builds the document from the rows.
    package init(traceDir: String, traces: [Row]) {
        self.traceDir = traceDir
        self.traces = traces
        let reports = traces.map(\.report)
        let count = Double(max(reports.count, 1))
        let round = { (value: Double) in (value * 1_000_000).rounded() / 1_000_000 }
        let adaptive = reports.compactMap(\.abr)
        totals = Totals(
            traces: reports.count, tracesWithStalls: reports.filter { $0.stallCount > 0 }.count,
            stallCount: reports.reduce(0) { $0 + $1.stallCount }, stallTime: round(reports.reduce(0) { $0 + $1.stallTime }),
            meanStartupDelay: round(reports.reduce(0) { $0 + $1.startupDelay } / count),
            meanRebufferRatio: Self.mean(reports.compactMap(\.rebufferRatio)).map(round),
            meanAverageBitRate: adaptive.isEmpty ? nil : round(adaptive.reduce(0) { $0 + $1.averageBitRate } / count),
            meanQoe: adaptive.isEmpty ? nil : round(adaptive.reduce(0) { $0 + $1.qoe.score } / count),
            switchCount: adaptive.isEmpty ? nil : adaptive.reduce(0) { $0 + $1.switchCount })
    }

    /// The mean of `values`, `nil` for none.
    private static func mean(_ values: [Double]) -> Double? {
        values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
    }

    /// The text table: one row per trace, then the totals.
    package var text: String {
        let adaptive = totals.switchCount != nil
        func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
            let fill = String(repeating: " ", count: max(width - text.count, 0))
            return left ? text + fill : fill + text
        }
        func cut(_ name: String) -> String { name.count > 28 ? String(name.prefix(27)) + "…" : name }
        func row(_ name: String, startup: Double, stalls: Int, stallTime: Double, rebuffer: Double?, abr: (Double, Int, Double)?)
            -> String
        {
            var line = pad(cut(name), 28, left: true) + " " + pad(String(format: "%.3f", startup), 9) + " "
            line += pad("\(stalls)", 7) + " " + pad(String(format: "%.3f", stallTime), 10) + " "
            line += pad(rebuffer.map { String(format: "%.2f%%", $0 * 100) } ?? "never", 9)
            if let (rate, switches, qoe) = abr {
                line += " " + pad(TextFormat.bitRate(rate), 12) + " " + pad("\(switches)", 9) + " " + pad(String(format: "%.3f", qoe), 10)
            }
            return line + "\n"
        }
        var out = pad("trace", 28, left: true) + " " + pad("startup", 9) + " " + pad("stalls", 7) + " " + pad("stall s", 10)
        out += " " + pad("rebuffer", 9)
        if adaptive { out += " " + pad("avg rate", 12) + " " + pad("switches", 9) + " " + pad("qoe", 10) }
        out += "\n"
        for entry in traces {
            let r = entry.report
            out += row(
                (entry.trace as NSString).lastPathComponent, startup: r.startupDelay, stalls: r.stallCount,
                stallTime: r.stallTime, rebuffer: r.rebufferRatio,
                abr: r.abr.map { ($0.averageBitRate, $0.switchCount, $0.qoe.score) })
        }
        let t = totals
        out += row(
            "total (\(t.traces), mean startup)", startup: t.meanStartupDelay, stalls: t.stallCount, stallTime: t.stallTime,
            rebuffer: t.meanRebufferRatio,
            abr: adaptive ? (t.meanAverageBitRate ?? 0, t.switchCount ?? 0, t.meanQoe ?? 0) : nil)
        out += "\(t.tracesWithStalls) of \(t.traces) traces stalled\n"
        return out
    }
}
