@testable import BufprobeCommands
@testable import CheckEngine
import PlaybackModel
import ProgressLine
import Testing
import TestSupport
@testable import ProbeEngine

@Suite("What probe puts on the live line")
struct ProbeLiveLineTests {
    func progress(loaded: [TimeRange], start: Double = 0, segments: [Double]? = nil) -> ProbeReader.Progress {
        ProbeReader.Progress(
            loaded: TimeRanges(loaded), duration: 10, start: start, bytes: 50_000, totalBytes: 100_000, elapsed: 2,
            segmentStarts: segments)
    }

    @Test("the loaded ranges, holes kept, shifted so the container's start time is 0, and the read rate")
    func rangesFromZero() {
        let snapshot = Probe.snapshot(
            progress(loaded: [TimeRange(start: 1.5, end: 4), TimeRange(start: 6, end: 7.5)], start: 1.5), title: "a.ts")
        #expect(snapshot.state == .reading)
        #expect(snapshot.loaded == [0..<2.5, 4.5..<6])
        #expect(snapshot.currentTime == 6)
        #expect(snapshot.duration == 10)
        #expect(snapshot.readBytesPerSecond == 25_000)
        #expect(!snapshot.showsPlayed)
        #expect(snapshot.segments == nil)
    }

    @Test("an HLS input draws its segments, the one being read highlighted", arguments: [
        (3.9, 1), (4.0, 2), (0.0, 0), (9.9, 4),
    ])
    func hlsSegments(position: Double, current: Int) {
        let snapshot = Probe.snapshot(
            progress(loaded: [TimeRange(start: 0, end: position)], segments: [0, 2, 4, 6, 8]), title: "master.m3u8")
        #expect(snapshot.segments == SegmentProgress(starts: [0, 2, 4, 6, 8], current: current))
    }

    @Test("a local HLS master playlist yields its first variant's segment starts")
    func segmentStartsOfTheSample() {
        let reader = ProbeReader(source: BufprobeProcess.sample("hls/master.m3u8"))
        #expect(reader.segmentStarts() == [0, 2, 4, 6, 8])
        #expect(ProbeReader(source: BufprobeProcess.sample("h264-aac.mp4")).segmentStarts() == nil)
    }
}
