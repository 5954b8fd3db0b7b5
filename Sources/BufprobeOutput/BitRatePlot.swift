import Foundation
package import PlaybackModel

/// The `--plot` picture as SVG text, written by hand: one bar per second of presentation time (the bytes
/// of the packets presented in that second, as a bit rate), a tick per keyframe of the played video, the
/// average rate, and the bandwidth a progressive download needs for a chosen startup delay, with axes,
/// labels and a legend. No dependencies; any browser or `rsvg-convert` shows it.
package enum BitRatePlot {
    /// The line drawn across the plot: the bandwidth needed for a startup delay.
    package struct NeedLine {
        /// Startup delay, seconds.
        package var startupDelay: Double
        /// Minimum bandwidth, bits per second; `nil` when none suffices.
        package var bitsPerSecond: Double?
        /// For an MP4 with its index at the end, the line is the range-request figure and this is the
        /// (much larger) figure for a download in file order, named in the legend only.
        package var inFileOrder: Double? = nil

        /// The line for `startupDelay` at `bitsPerSecond`, with the file-order figure when there is one.
        package init(startupDelay: Double, bitsPerSecond: Double?, inFileOrder: Double? = nil) {
            self.startupDelay = startupDelay
            self.bitsPerSecond = bitsPerSecond
            self.inFileOrder = inFileOrder
        }
    }

    /// The picture's width, SVG units (simulate's plot shares the frame).
    package static let width = 960.0
    /// The picture's height.
    package static let height = 420.0
    /// The margin left of the plot area, for the rate axis's labels.
    package static let left = 80.0
    /// The margin right of the plot area.
    package static let right = 30.0
    /// The margin above the plot area, for the title and the legend.
    package static let top = 72.0
    /// The margin below the plot area, for the time axis's labels.
    package static let bottom = 64.0
    /// The bars' color.
    package static let barColor = "#4a7fc1"
    /// The keyframe ticks' color.
    package static let keyframeColor = "#d62728"
    /// The average line's color.
    package static let averageColor = "#555555"
    /// The needed-bandwidth line's color.
    package static let needColor = "#2ca02c"
    /// More ticks than an axis ever needs (niceStep aims at 5 to 10).
    package static let maxTicks = 30

    /// The SVG document for `timeline` of the input `title`.
    package static func svg(timeline: BitRateTimeline, title: String, average: Double?, need: NeedLine?) -> String {
        let rates = timeline.rates
        let plotWidth = width - left - right
        let plotHeight = height - top - bottom
        let bottomY = top + plotHeight
        let start = rates.first?.start ?? 0
        let end = (rates.last?.start ?? 0) + timeline.slice
        let span = max(end - start, timeline.slice)
        let highest = max(rates.map(\.bitsPerSecond).max() ?? 0, need?.bitsPerSecond ?? 0, average ?? 0, 1)
        let yStep = niceStep(highest * 1.1 / 1000 / 5) * 1000
        let yMax = (highest * 1.1 / yStep).rounded(.up) * yStep
        func x(_ time: Double) -> Double { left + (time - start) / span * plotWidth }
        func y(_ rate: Double) -> Double { bottomY - rate / yMax * plotHeight }
        func across(_ rate: Double, _ attributes: [(String, String)]) -> String {
            element("line", [("x1", n(left)), ("y1", n(y(rate))), ("x2", n(left + plotWidth)), ("y2", n(y(rate)))] + attributes)
        }

        var out = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>"]
        out.append(open("svg", [
            ("xmlns", "http://www.w3.org/2000/svg"), ("width", n(width)), ("height", n(height)),
            ("viewBox", "0 0 \(n(width)) \(n(height))"), ("font-family", "sans-serif"), ("font-size", "12"),
        ]))
        out.append(element("title", [], text: "Bit rate of \(title)"))
        out.append(element("rect", [("width", "100%"), ("height", "100%"), ("fill", "white")]))
        out.append(element(
            "text", [("x", n(left)), ("y", "22"), ("font-size", "15"), ("font-weight", "bold")],
            text: "Bit rate per second of \(title)"))

        // Grid lines with the rate labels of the y axis. Ticks are counted, never accumulated: with figures
        // from a damaged file (an infinite average, times near 1e17 s where adding a step changes nothing)
        // a `while value <= end { value += step }` loop would never end.
        for index in 0..<maxTicks {
            let tick = Double(index) * yStep
            guard tick <= yMax + yStep / 2 else { break }
            out.append(across(tick, [("class", "grid"), ("stroke", "#e0e0e0")]))
            out.append(element(
                "text", [("x", n(left - 6)), ("y", n(y(tick) + 4)), ("text-anchor", "end")], text: grouped(tick / 1000)))
        }
        out.append(open("g", [("class", "bars"), ("fill", barColor)]))
        for rate in rates where rate.bitsPerSecond > 0 {
            let x0 = x(rate.start)
            let barWidth = max(x(rate.start + timeline.slice) - x0 - 1, 0.5)
            let tooltip = element("title", [], text: TextFormat.number(rate.start) + " s: " + TextFormat.bitRate(rate.bitsPerSecond))
            out.append(open("rect", [
                ("x", n(x0)), ("y", n(y(rate.bitsPerSecond))), ("width", n(barWidth)),
                ("height", n(bottomY - y(rate.bitsPerSecond))),
            ]) + tooltip + "</rect>")
        }
        out.append("</g>")
        out.append(open("g", [("class", "keyframes"), ("stroke", keyframeColor), ("stroke-width", "1.5")]))
        // A faint line through the bars and a solid tick above the plot, so keyframes show on any bar; with
        // more keyframes than fit 6 px apart the faint lines would paint the plot over, so only ticks.
        let throughBars = Double(timeline.keyframes.count) <= plotWidth / 6
        for time in timeline.keyframes where time >= start && time <= end {
            if throughBars {
                out.append(element("line", [
                    ("x1", n(x(time))), ("y1", n(bottomY)), ("x2", n(x(time))), ("y2", n(top)), ("stroke-opacity", "0.35"),
                ]))
            }
            out.append(element("line", [
                ("x1", n(x(time))), ("y1", n(top - 2)), ("x2", n(x(time))), ("y2", n(top + 8)), ("stroke-width", "2.5"),
            ]))
        }
        out.append("</g>")
        if let average {
            out.append(across(average, [("class", "average"), ("stroke", averageColor), ("stroke-dasharray", "2 3")]))
        }
        if let rate = need?.bitsPerSecond {
            out.append(across(rate, [
                ("class", "bandwidth"), ("stroke", needColor), ("stroke-width", "2"), ("stroke-dasharray", "8 4"),
            ]))
        }

        // Axes, time ticks and axis titles.
        out.append(element("line", [("x1", n(left)), ("y1", n(top)), ("x2", n(left)), ("y2", n(bottomY)), ("stroke", "black")]))
        out.append(element("line", [
            ("x1", n(left)), ("y1", n(bottomY)), ("x2", n(left + plotWidth)), ("y2", n(bottomY)), ("stroke", "black"),
        ]))
        let xStep = niceStep(span / 10)
        let firstTime = (start / xStep).rounded(.up) * xStep
        for index in 0..<maxTicks {
            let time = firstTime + Double(index) * xStep
            guard time <= end + 1e-9 else { break }
            out.append(element("line", [
                ("x1", n(x(time))), ("y1", n(bottomY)), ("x2", n(x(time))), ("y2", n(bottomY + 5)), ("stroke", "black"),
            ]))
            out.append(element(
                "text", [("x", n(x(time))), ("y", n(bottomY + 19)), ("text-anchor", "middle")], text: TextFormat.number(time)))
        }
        out.append(element(
            "text", [("x", n(left + plotWidth / 2)), ("y", n(height - 14)), ("text-anchor", "middle")],
            text: "presentation time (s)"))
        out.append(element(
            "text", [("transform", "translate(18 \(n(top + plotHeight / 2))) rotate(-90)"), ("text-anchor", "middle")],
            text: "kbit/s (bytes per second x 8)"))

        var legend = [(barColor, "", "bit rate per second"), (keyframeColor, "", "keyframe")]
        if let average { legend.append((averageColor, "2 3", "average " + TextFormat.bitRate(average))) }
        if let need {
            let delay = TextFormat.number(need.startupDelay) + " s"
            legend.append((
                needColor, "8 4",
                need.bitsPerSecond.map { rate in
                    guard let inOrder = need.inFileOrder else { return "needed to start in \(delay): " + TextFormat.bitRate(rate) }
                    return "needed to start in \(delay) with range requests: " + TextFormat.bitRate(rate)
                        + " (in file order: " + TextFormat.bitRate(inOrder) + ")"
                } ?? "no bandwidth starts in \(delay)"))
        }
        var legendX = left
        var legendY = 40.0
        for (color, dash, label) in legend {
            // About 6.6 px per character at 12 px sans-serif; an entry that would run off wraps to a second row.
            let entryWidth = 34 + Double(label.count) * 6.6
            if legendX > left, legendX + entryWidth > width - right {
                legendX = left
                legendY += 17
            }
            var stroke = [
                ("x1", n(legendX)), ("y1", n(legendY)), ("x2", n(legendX + 18)), ("y2", n(legendY)), ("stroke", color),
                ("stroke-width", "3"),
            ]
            if !dash.isEmpty { stroke.append(("stroke-dasharray", dash)) }
            out.append(element("line", stroke))
            out.append(element("text", [("class", "legend"), ("x", n(legendX + 24)), ("y", n(legendY + 4))], text: label))
            legendX += entryWidth
        }
        out.append("</svg>")
        return out.joined(separator: "\n") + "\n"
    }

    /// `<name a="v"...>`.
    package static func open(_ name: String, _ attributes: [(String, String)]) -> String {
        "<" + name + attributes.map { " \($0.0)=\"\(XMLText.escaped($0.1))\"" }.joined() + ">"
    }

    /// `<name a="v".../>`, or with `text` (escaped) as its content.
    package static func element(_ name: String, _ attributes: [(String, String)], text: String? = nil) -> String {
        let head = open(name, attributes)
        guard let text else { return String(head.dropLast()) + "/>" }
        return head + XMLText.escaped(text) + "</\(name)>"
    }

    /// A coordinate with one decimal.
    package static func n(_ value: Double) -> String { TextFormat.number((value * 10).rounded() / 10) }

    /// 1, 2 or 5 times a power of ten, at least `raw`.
    package static func niceStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        let power = pow(10, floor(log10(raw)))
        for factor in [1.0, 2, 5, 10] where factor * power >= raw { return factor * power }
        return 10 * power
    }


    /// Whole numbers with thousands separated (`1,200`), others as `TextFormat.number`.
    package static func grouped(_ value: Double) -> String {
        // Beyond 2^53 a Double has no fraction to show, and beyond Int's range Int() would trap.
        guard abs(value) < 9e15 else { return TextFormat.number(value) }
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
