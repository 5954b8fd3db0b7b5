@testable import BufprobeCommands
@testable import CheckEngine
import PlaybackModel
import Testing
import BufprobeOutput

@Suite("BitRatePlot with figures from damaged files")
struct BitRatePlotTests {
    private func timeline(_ times: [Double]) -> BitRateTimeline {
        var timeline = BitRateTimeline(keyframeStream: 0)
        for time in times {
            timeline.add(MediaPacket(stream: 0, pts: time, dts: time, duration: 0.04, size: 1_000, position: nil, isKeyframe: true))
        }
        return timeline
    }

    @Test(
        "the plot ends and draws one bar per second with data, whatever the times and rates",
        arguments: [
            // Two packets 4 million seconds apart (a damaged FLV timestamp, found by the fuzz target).
            ([0, 4_099_539.073], 2),
            // Near 1e17 s a second is below a Double's precision (one slice), and adding a 0.1 s tick step
            // changes nothing: the tick loop must end all the same.
            ([1e17, 1e17 + 1], 1),
            ([-1e18, 1e18], 2),
        ] as [([Double], Int)])
    func plotEnds(times: [Double], bars: Int) {
        let svg = BitRatePlot.svg(
            timeline: timeline(times), title: "damaged", average: .infinity,
            need: BitRatePlot.NeedLine(startupDelay: 2, bitsPerSecond: .greatestFiniteMagnitude))
        #expect(svg.hasSuffix("</svg>\n"))
        #expect(svg.components(separatedBy: "<rect x=").count - 1 == bars)
    }
}
