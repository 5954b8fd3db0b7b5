import Foundation
import PlaybackModel

/// Writes the `--plot` file for one probed input.
enum ProbePlotFile {
    /// Writes the SVG for `timeline` to `path`, with the needed bandwidth for `startupDelay` taken from
    /// `report.needs`. Only SVG is written: PNG would need an image library bufprobe does not link.
    /// Returns a sentence naming the file when it cannot be written, else `nil`.
    static func write(_ timeline: BitRateTimeline, report: ProbeReport, startupDelay: Double, to path: String) -> String? {
        let need = report.needs.first { $0.startupDelay == startupDelay }.map {
            BitRatePlot.NeedLine(startupDelay: startupDelay, bitsPerSecond: $0.minBandwidthBps)
        }
        let title = (report.source as NSString).lastPathComponent
        let text = BitRatePlot.svg(
            timeline: timeline, title: title, average: report.bitRateProfile?.averageBps, need: need)
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return nil
        } catch {
            return "The plot could not be written to \(path) (\(error.localizedDescription)); check the directory and permissions."
        }
    }
}
