import Foundation
package import PlaybackModel
import BufprobeOutput
import InputReading

/// Writes the `--plot` file for one probed input.
package enum ProbePlotFile {
    /// Writes the SVG for `timeline` to `path`, with the needed bandwidth for `startupDelay` taken from
    /// `report.needs`. Only SVG is written: PNG would need an image library bufprobe does not link.
    /// Returns a sentence naming the file when it cannot be written, else `nil`.
    package static func write(_ timeline: BitRateTimeline, report: ProbeReport, startupDelay: Double, to path: String) -> String? {
        let text = svg(timeline, report: report, startupDelay: startupDelay)
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return nil
        } catch {
            return "the plot could not be written to \(path) (\(error.localizedDescription)); check the directory and permissions."
        }
    }

    /// The SVG text of the plot for `timeline`, with the needed bandwidth for `startupDelay`.
    package static func svg(_ timeline: BitRateTimeline, report: ProbeReport, startupDelay: Double) -> String {
        // With the index at the end, the whole file in `startupDelay` would flatten every bar: draw what a
        // player with range requests needs, and name the file-order figure in the legend.
        let need = report.needs.first { $0.startupDelay == startupDelay }.map { row in
            row.minBandwidthBpsRangeRequests.map {
                BitRatePlot.NeedLine(startupDelay: startupDelay, bitsPerSecond: $0, inFileOrder: row.minBandwidthBps)
            } ?? BitRatePlot.NeedLine(startupDelay: startupDelay, bitsPerSecond: row.minBandwidthBps)
        }
        let title = InputKind.title(of: report.source)
        return BitRatePlot.svg(
            timeline: timeline, title: title, average: report.bitRateProfile?.averageBps, need: need)
    }
}
