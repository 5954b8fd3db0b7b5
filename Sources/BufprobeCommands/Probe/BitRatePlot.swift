import Foundation
import PlaybackModel

/// The `--plot` picture as SVG text, written by hand: one bar per second of presentation time (the bytes
/// of the packets presented in that second, as a bit rate), a tick per keyframe of the played video, the
/// average rate, and the bandwidth a progressive download needs for a chosen startup delay, with axes,
/// labels and a legend. No dependencies; any browser or `rsvg-convert` shows it.
enum BitRatePlot {
    /// The line drawn across the plot: the bandwidth needed for a startup delay.
    struct NeedLine {
        /// Startup delay, seconds.
        var startupDelay: Double
        /// Minimum bandwidth, bits per second; `nil` when none suffices.
        var bitsPerSecond: Double?
    }

    static let width = 960.0
    static let height = 420.0
    static let left = 80.0
    static let right = 30.0
    static let top = 56.0
    static let bottom = 64.0

    /// The SVG document for `timeline` of the input `title`.
    static func svg(
        timeline: BitRateTimeline, title: String, average: Double?, need: NeedLine?
    ) -> String {
        let rates = timeline.rates
        let plotWidth = width - left - right
        let plotHeight = height - top - bottom
        let start = rates.first?.start ?? 0
        let end = (rates.last?.start ?? 0) + timeline.slice
        let span = max(end - start, timeline.slice)
        let highest = max(rates.map(\.bitsPerSecond).max() ?? 0, need?.bitsPerSecond ?? 0, average ?? 0, 1)
        let yStep = niceStep(highest * 1.1 / 1000 / 5) * 1000
        let yMax = (highest * 1.1 / yStep).rounded(.up) * yStep
        func x(_ time: Double) -> Double { left + (time - start) / span * plotWidth }
        func y(_ rate: Double) -> Double { top + plotHeight - rate / yMax * plotHeight }
        func f(_ value: Double) -> String { String(format: "%.1f", value) }

        var out: [String] = []
        out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>")
        out.append(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" font-family=\"sans-serif\" font-size=\"12\">")
        out.append("<title>\(escape("Bit rate of \(title)"))</title>")
        out.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>")
        out.append("<text x=\"\(f(left))\" y=\"22\" font-size=\"15\" font-weight=\"bold\">\(escape("Bit rate per second of \(title)"))</text>")

        // Grid and y labels.
        var tick = 0.0
        while tick <= yMax + yStep / 2 {
            out.append("<line class=\"grid\" x1=\"\(f(left))\" y1=\"\(f(y(tick)))\" x2=\"\(f(left + plotWidth))\" y2=\"\(f(y(tick)))\" stroke=\"#e0e0e0\"/>")
            out.append("<text x=\"\(f(left - 6))\" y=\"\(f(y(tick) + 4))\" text-anchor=\"end\">\(grouped(tick / 1000))</text>")
            tick += yStep
        }
        // Bars.
        out.append("<g class=\"bars\" fill=\"#4a7fc1\">")
        for rate in rates where rate.bitsPerSecond > 0 {
            let x0 = x(rate.start)
            let barWidth = max(x(rate.start + timeline.slice) - x0 - 1, 0.5)
            out.append("<rect x=\"\(f(x0))\" y=\"\(f(y(rate.bitsPerSecond)))\" width=\"\(f(barWidth))\" height=\"\(f(top + plotHeight - y(rate.bitsPerSecond)))\"><title>\(escape(String(format: "%.0f s: ", rate.start) + TextFormat.bitRate(rate.bitsPerSecond)))</title></rect>")
        }
        out.append("</g>")
        // Keyframe ticks along the time axis.
        out.append("<g class=\"keyframes\" stroke=\"#d62728\" stroke-width=\"1.5\">")
        for time in timeline.keyframes where time >= start && time <= end {
            // A faint line through the bars and a solid tick above the plot, so keyframes show on any bar.
            out.append("<line x1=\"\(f(x(time)))\" y1=\"\(f(top + plotHeight))\" x2=\"\(f(x(time)))\" y2=\"\(f(top))\" stroke-opacity=\"0.35\"/>")
            out.append("<line x1=\"\(f(x(time)))\" y1=\"\(f(top - 2))\" x2=\"\(f(x(time)))\" y2=\"\(f(top + 8))\" stroke-width=\"2.5\"/>")
        }
        out.append("</g>")
        if let average {
            out.append("<line class=\"average\" x1=\"\(f(left))\" y1=\"\(f(y(average)))\" x2=\"\(f(left + plotWidth))\" y2=\"\(f(y(average)))\" stroke=\"#555555\" stroke-dasharray=\"2 3\"/>")
        }
        if let need, let rate = need.bitsPerSecond {
            out.append("<line class=\"bandwidth\" x1=\"\(f(left))\" y1=\"\(f(y(rate)))\" x2=\"\(f(left + plotWidth))\" y2=\"\(f(y(rate)))\" stroke=\"#2ca02c\" stroke-width=\"2\" stroke-dasharray=\"8 4\"/>")
        }
        // Axes.
        out.append("<line x1=\"\(f(left))\" y1=\"\(f(top))\" x2=\"\(f(left))\" y2=\"\(f(top + plotHeight))\" stroke=\"black\"/>")
        out.append("<line x1=\"\(f(left))\" y1=\"\(f(top + plotHeight))\" x2=\"\(f(left + plotWidth))\" y2=\"\(f(top + plotHeight))\" stroke=\"black\"/>")
        let xStep = niceStep(span / 10)
        var time = (start / xStep).rounded(.up) * xStep
        while time <= end + 1e-9 {
            out.append("<line x1=\"\(f(x(time)))\" y1=\"\(f(top + plotHeight))\" x2=\"\(f(x(time)))\" y2=\"\(f(top + plotHeight + 5))\" stroke=\"black\"/>")
            out.append("<text x=\"\(f(x(time)))\" y=\"\(f(top + plotHeight + 19))\" text-anchor=\"middle\">\(TextFormat.number(time))</text>")
            time += xStep
        }
        out.append("<text x=\"\(f(left + plotWidth / 2))\" y=\"\(f(height - 14))\" text-anchor=\"middle\">presentation time (s)</text>")
        out.append("<text transform=\"translate(18 \(f(top + plotHeight / 2))) rotate(-90)\" text-anchor=\"middle\">kbit/s (bytes per second x 8)</text>")
        // Legend.
        var legend: [(String, String, String)] = [("#4a7fc1", "", "bit rate per second"), ("#d62728", "", "keyframe")]
        if let average { legend.append(("#555555", "2 3", "average " + TextFormat.bitRate(average))) }
        if let need {
            let label = need.bitsPerSecond.map {
                "needed to start in " + TextFormat.number(need.startupDelay) + " s: " + TextFormat.bitRate($0)
            } ?? "no bandwidth starts in " + TextFormat.number(need.startupDelay) + " s"
            legend.append(("#2ca02c", "8 4", label))
        }
        var legendX = left
        for (color, dash, label) in legend {
            out.append("<line x1=\"\(f(legendX))\" y1=\"40\" x2=\"\(f(legendX + 18))\" y2=\"40\" stroke=\"\(color)\" stroke-width=\"3\"\(dash.isEmpty ? "" : " stroke-dasharray=\"\(dash)\"")/>")
            out.append("<text class=\"legend\" x=\"\(f(legendX + 24))\" y=\"44\">\(escape(label))</text>")
            legendX += 34 + Double(label.count) * 6.6
        }
        out.append("</svg>")
        return out.joined(separator: "\n") + "\n"
    }

    /// 1, 2 or 5 times a power of ten, at least `raw`.
    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        let power = pow(10, floor(log10(raw)))
        for factor in [1.0, 2, 5, 10] where factor * power >= raw { return factor * power }
        return 10 * power
    }

    /// Text with `&`, `<`, `>` and quotes escaped for XML.
    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }

    /// Whole numbers with thousands separated (`1,200`), others as `plain`.
    static func grouped(_ value: Double) -> String {
        let whole = Int(value.rounded())
        guard abs(value - Double(whole)) < 1e-9 else { return TextFormat.number(value) }
        let digits = String(abs(whole))
        var result = ""
        for (offset, character) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result += "," }
            result.append(character)
        }
        return (whole < 0 ? "-" : "") + result
    }
}
