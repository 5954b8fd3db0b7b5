import BufprobeCommands
import Foundation
import PlaybackModel
import Testing
import TestSupport

/// `check --record-trace`'s recording and its three formats, on byte counts whose trace is known.
@Suite("ThroughputRecording")
struct ThroughputRecordingTests {
    /// 1 Mbit/s for 1 s, then 2 Mbit/s for 1 s; then 1 s not loading; then 1 Mbit/s for 1 s.
    static var recording: ThroughputRecording {
        var recording = ThroughputRecording()
        recording.add(time: 1, bytes: 125_000)
        recording.add(time: 2, bytes: 375_000)
        recording.loading(false, at: 2)
        recording.add(time: 3, bytes: 375_000)
        recording.loading(true, at: 3)
        recording.add(time: 4, bytes: 500_000)
        return recording
    }

    @Test("each 0.5 s bin is the bytes received in it over its width; a bin spent not loading repeats the rate before it")
    func bins() {
        let steps = Self.recording.steps
        #expect(steps.map(\.duration) == Array(repeating: 0.5, count: 8))
        #expect(steps.map(\.bitsPerSecond) == [1e6, 1e6, 2e6, 2e6, 2e6, 2e6, 1e6, 1e6])
        #expect(ThroughputRecording().steps.isEmpty)
    }

    @Test("samples closer than 10 ms are merged without losing bytes")
    func merging() {
        var recording = ThroughputRecording()
        recording.add(time: 0.5, bytes: 30_000)
        recording.add(time: 0.505, bytes: 62_500)
        recording.add(time: 1, bytes: 125_000)
        #expect(recording.steps.map(\.bitsPerSecond) == [1e6, 1e6])
    }

    @Test("the bufprobe format is the two columns simulate --trace reads, giving the same steps back")
    func bufprobeFormat() throws {
        let text = Self.recording.render(.bufprobe, source: "http://h/a.mp4")
        #expect(text.split(separator: "\n").filter { !$0.hasPrefix("#") } == ["0 1", "0.5 1", "1 2", "1.5 2", "2 2", "2.5 2", "3 1", "3.5 1"])
        let trace = try NetworkTrace.parseColumns(text)
        #expect(trace.steps.map(\.bitsPerSecond) == Self.recording.steps.map(\.bitsPerSecond))
        #expect(trace.period == 4)
    }

    @Test("the sabre format is Sabre's JSON list, which simulate --trace reads with no latency of its own")
    func sabreFormat() throws {
        let text = Self.recording.render(.sabre, source: "x")
        #expect(text.contains("{\"duration_ms\": 500, \"bandwidth_kbps\": 2000}"))
        let directory = try CheckServers.temporaryDirectory("bufprobe-sabre")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("trace.json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let trace = try SimulationTraceFile.load(path)
        #expect(trace.steps.map(\.bitsPerSecond) == Self.recording.steps.map(\.bitsPerSecond))
        #expect(!trace.carriesLatency)
    }

    @Test("the mahimahi format has one whole-millisecond line per 1500 bytes the link carried")
    func mahimahiFormat() {
        let lines = Self.recording.render(.mahimahi, source: "x").split(separator: "\n").compactMap { Int($0) }
        // 500,000 bytes plus the 1 s not loading at 2 Mbit/s (250,000 bytes) the trace repeats.
        #expect(lines.count == 750_000 / 1500)
        // 1500 bytes at 1 Mbit/s take 12 ms: 83 by 996 ms, 500 bytes left over; at 2 Mbit/s, 6 ms each.
        #expect(Array(lines.prefix(2)) == [12, 24])
        #expect(lines[82] == 996 && lines[83] == 1004 && lines[84] == 1010)
        #expect(lines == lines.sorted())
        #expect(lines.last == 4000)
    }
}
