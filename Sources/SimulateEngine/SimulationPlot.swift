import Foundation
import PlaybackModel
import BufprobeOutput

/// The `simulate --plot` picture as SVG text: over session time, the buffer ahead of the playhead (right
/// axis, seconds), the bandwidth the network offered and the bit rate of the variant being fetched, as
/// steps (left axis), and each stall as a shaded band. Drawn from a second run of the same engine sampled
/// at fixed steps (the report comes from the unsampled run).
enum SimulationPlot {
    /// One sample of the session.
    struct Sample {
        var time: Double
        var buffer: Double
        var bandwidth: Double
        var rate: Double
    }

    static let bufferColor = "#2ca02c"
    static let bandwidthColor = "#999999"
    static let rateColor = "#4a7fc1"
    static let stallColor = "#d62728"

    /// Runs `engine` (fresh) to its end, sampling about 2,000 times (at least every 0.1 s of session
    /// time); `rate` gives the fetched bit rate of the engine at that moment.
    static func sample(_ engine: inout SimulationEngine, rate: (SimulationEngine) -> Double) -> [Sample] {
        var probe = engine
        probe.run()
        let length = probe.clock
        let step = max(length / 2000, 0.1)
        var samples: [Sample] = []
        func take(_ engine: SimulationEngine) {
            samples.append(
                Sample(
                    time: engine.clock, buffer: engine.player.item.bufferedAhead,
                    bandwidth: engine.network.bandwidth(at: engine.clock), rate: rate(engine)))
        }
        var time = 0.0
        while time < length, !engine.isFinished {
            engine.run(until: time)
            take(engine)
            time += step
        }
        engine.run()
        take(engine)
        return samples
    }

    /// The SVG document.
    static func svg(samples: [Sample], stalls: [QoEReport.Stall], title: String, rateLabel: String) -> String {
        typealias P = BitRatePlot
        let width = P.width
        let height = P.height
        let left = P.left
        let right = 70.0
        let top = P.top
        let plotWidth = width - left - right
        let plotHeight = height - top - P.bottom
        let bottomY = top + plotHeight
        let end = max(samples.last?.time ?? 1, 0.1)
        let highest = max(samples.map { max($0.bandwidth, $0.rate) }.max() ?? 0, 1)
        let yStep = P.niceStep(highest * 1.1 / 1000 / 5) * 1000
        let yMax = (highest * 1.1 / yStep).rounded(.up) * yStep
        let deepest = max(samples.map(\.buffer).max() ?? 0, 1)
        let bStep = P.niceStep(deepest * 1.1 / 5)
        let bMax = (deepest * 1.1 / bStep).rounded(.up) * bStep
        func x(_ time: Double) -> Double { left + time / end * plotWidth }
        func y(_ rate: Double) -> Double { bottomY - min(rate, yMax) / yMax * plotHeight }
        func yb(_ seconds: Double) -> Double { bottomY - min(seconds, bMax) / bMax * plotHeight }
        func steps(_ value: (Sample) -> Double, _ scale: (Double) -> Double) -> String {
            var points: [String] = []
            var previous: Double?
            for sample in samples {
                let level = scale(value(sample))
                if let previous { points.append("\(P.n(x(sample.time))),\(P.n(previous))") }
                points.append("\(P.n(x(sample.time))),\(P.n(level))")
                previous = level
            }
            return points.joined(separator: " ")
        }

        var out = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>"]
        out.append(P.open("svg", [
            ("xmlns", "http://www.w3.org/2000/svg"), ("width", P.n(width)), ("height", P.n(height)),
            ("viewBox", "0 0 \(P.n(width)) \(P.n(height))"), ("font-family", "sans-serif"), ("font-size", "12"),
        ]))
        out.append(P.element("title", [], text: "Simulated session of \(title)"))
        out.append(P.element("rect", [("width", "100%"), ("height", "100%"), ("fill", "white")]))
        out.append(P.element(
            "text", [("x", P.n(left)), ("y", "22"), ("font-size", "15"), ("font-weight", "bold")],
            text: "Simulated session of \(title)"))
        // Legend.
        let legend: [(String, String, String)] = [
            (bandwidthColor, "bandwidth offered", ""), (rateColor, rateLabel, ""), (bufferColor, "buffer ahead (right axis)", ""),
            (stallColor, "stall", "band"),
        ]
        var legendX = left
        for (color, label, kind) in legend {
            if kind == "band" {
                out.append(P.element("rect", [("x", P.n(legendX)), ("y", "36"), ("width", "18"), ("height", "10"), ("fill", color), ("fill-opacity", "0.25")]))
            } else {
                out.append(P.element("line", [("x1", P.n(legendX)), ("y1", "41"), ("x2", P.n(legendX + 18)), ("y2", "41"), ("stroke", color), ("stroke-width", "2")]))
            }
            out.append(P.element("text", [("x", P.n(legendX + 24)), ("y", "45")], text: label))
            legendX += 24 + Double(label.count) * 6.5 + 18
        }
        // Stalls first, under the lines.
        for stall in stalls {
            let x0 = x(stall.start)
            let x1 = x(stall.start + stall.duration)
            out.append(P.element("rect", [
                ("x", P.n(x0)), ("y", P.n(top)), ("width", P.n(max(x1 - x0, 1))), ("height", P.n(plotHeight)),
                ("fill", stallColor), ("fill-opacity", "0.25"),
            ]))
        }
        // Axes and grid.
        var tick = 0.0
        var count = 0
        while tick <= yMax + 1e-9, count < P.maxTicks {
            out.append(P.element("line", [("x1", P.n(left)), ("y1", P.n(y(tick))), ("x2", P.n(left + plotWidth)), ("y2", P.n(y(tick))), ("stroke", "#eeeeee")]))
            out.append(P.element("text", [("x", P.n(left - 6)), ("y", P.n(y(tick) + 4)), ("text-anchor", "end")], text: TextFormat.bitRate(tick)))
            tick += yStep
            count += 1
        }
        tick = 0
        count = 0
        while tick <= bMax + 1e-9, count < P.maxTicks {
            out.append(P.element("text", [("x", P.n(left + plotWidth + 6)), ("y", P.n(yb(tick) + 4)), ("fill", bufferColor)], text: "\(P.n(tick)) s"))
            tick += bStep
            count += 1
        }
        let tStep = P.niceStep(end / 8)
        tick = 0
        count = 0
        while tick <= end + 1e-9, count < P.maxTicks {
            out.append(P.element("text", [("x", P.n(x(tick))), ("y", P.n(bottomY + 18)), ("text-anchor", "middle")], text: "\(P.n(tick))"))
            tick += tStep
            count += 1
        }
        out.append(P.element("text", [("x", P.n(left + plotWidth / 2)), ("y", P.n(bottomY + 40)), ("text-anchor", "middle")], text: "session time (s)"))
        out.append(P.element("rect", [("x", P.n(left)), ("y", P.n(top)), ("width", P.n(plotWidth)), ("height", P.n(plotHeight)), ("fill", "none"), ("stroke", "#333333")]))
        // Lines.
        out.append(P.element("polyline", [("points", steps(\.bandwidth, y)), ("fill", "none"), ("stroke", bandwidthColor), ("stroke-width", "1.5")]))
        out.append(P.element("polyline", [("points", steps(\.rate, y)), ("fill", "none"), ("stroke", rateColor), ("stroke-width", "2")]))
        var buffer: [String] = []
        for sample in samples { buffer.append("\(P.n(x(sample.time))),\(P.n(yb(sample.buffer)))") }
        out.append(P.element("polyline", [("points", buffer.joined(separator: " ")), ("fill", "none"), ("stroke", bufferColor), ("stroke-width", "1.5")]))
        out.append("</svg>")
        return out.joined(separator: "\n") + "\n"
    }
}
