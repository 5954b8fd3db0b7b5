import BufprobeCommands
@testable import CheckEngine
import Foundation
import PlaybackModel
import Testing
import TestSupport
import SimulateEngine

/// `check --record-trace`'s recording and its three formats, on byte counts whose trace is known.
@Suite("ThroughputRecording")
struct ThroughputRecordingTests {
    /// Samples every 0.1 s: 1 Mbit/s for 1 s, 2 Mbit/s for 1 s, 1 s not loading, 1 Mbit/s for 1 s.
    static var recording: ThroughputRecording {
        var recording = ThroughputRecording()
        for k in 1...10 { recording.add(time: Double(k) * 0.1, bytes: Int64(12_500 * k)) }
        for k in 11...20 { recording.add(time: Double(k) * 0.1, bytes: Int64(125_000 + 25_000 * (k - 10))) }
        recording.loading(false, at: 2)
        recording.loading(true, at: 3)
        for k in 31...40 { recording.add(time: Double(k) * 0.1, bytes: Int64(375_000 + 12_500 * (k - 30))) }
        return recording
    }

    static func close(_ a: [Double], _ b: [Double]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= max(abs($1), 1) * 1e-9 }
    }

    @Test("each 0.1 s bin is the bytes that arrived in it over its width; a bin spent not loading takes the mean of the last second loading")
    func bins() {
        let steps = Self.recording.steps
        #expect(Self.close(steps.map(\.duration), Array(repeating: 0.1, count: 40)))
        let expected = Array(repeating: 1e6, count: 10) + Array(repeating: 2e6, count: 20) + Array(repeating: 1e6, count: 10)
        #expect(Self.close(steps.map(\.bitsPerSecond), expected), "\(steps.map(\.bitsPerSecond))")
        #expect(ThroughputRecording().steps.isEmpty)
    }

    @Test("bytes count in the bin their packet arrived in, not spread over the wait before it (a server's bursts stay bursts)")
    func bursts() {
        var recording = ThroughputRecording()
        recording.add(time: 0.95, bytes: 100_000)
        recording.add(time: 1.95, bytes: 200_000)
        recording.add(time: 2, bytes: 200_000)
        let rates = recording.steps.map(\.bitsPerSecond)
        #expect(rates.count == 20)
        #expect(rates.filter { $0 > 0 }.count == 2)
        #expect(Self.close([rates[9], rates[19]], [8e6, 8e6]))
    }

    @Test("samples 1 ms apart are thinned to about one per 10 ms without losing a byte or moving one by 10 ms or more")
    func thinning() {
        var recording = ThroughputRecording()
        for k in 1...1000 { recording.add(time: Double(k) * 0.001, bytes: Int64(125 * k)) }
        // A new sample starts once 10 ms have passed since the one before the last: one per 9-10 ms.
        #expect(recording.samples.count <= 113)
        #expect(recording.samples.last?.bytes == 125_000)
        for pair in zip(recording.samples.dropFirst(), recording.samples.dropFirst(2)) {
            #expect(pair.1.time - pair.0.time < 0.0105)
        }
    }

    @Test("the bufprobe format is the two columns simulate --trace reads, giving the same steps back")
    func bufprobeFormat() throws {
        let text = Self.recording.render(.bufprobe, source: "http://h/a.mp4")
        let rows = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(Array(rows.prefix(2)) == ["0 1", "0.1 1"])
        #expect(rows[10] == "1 2" && rows.count == 40)
        let trace = try NetworkTrace.parseColumns(text)
        #expect(Self.close(trace.steps.map(\.bitsPerSecond), Self.recording.steps.map(\.bitsPerSecond)))
        #expect(abs(trace.period - 4) < 1e-9)
    }

    @Test("the sabre format is Sabre's JSON list, which simulate --trace reads with no latency of its own")
    func sabreFormat() throws {
        let text = Self.recording.render(.sabre, source: "x")
        #expect(text.contains("{\"duration_ms\": 100, \"bandwidth_kbps\": 2000}"))
        let directory = try CheckServers.temporaryDirectory("bufprobe-sabre")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("trace.json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let trace = try SimulationTraceFile.load(path)
        // The file rounds kbit/s to six decimals.
        let written = trace.steps.map(\.bitsPerSecond)
        let recorded = Self.recording.steps.map(\.bitsPerSecond)
        #expect(written.count == recorded.count)
        #expect(zip(written, recorded).allSatisfy { abs($0 - $1) < 0.01 })
        #expect(!trace.carriesLatency)
    }

    /// 1 Mbit/s while not waiting, over 2 s; requests at 0 s (waiting 0.2 s, nothing arrives), 0.96 s
    /// (waiting 40 ms, nothing arrives from 0.96 s to 1 s) and 1.52 s and 1.55 s (10 and 30 ms, no pause
    /// in the bytes: 12,500 bytes in that bin all the same).
    static var waiting: ThroughputRecording {
        var recording = ThroughputRecording()
        recording.addLatency(start: 0, seconds: 0.2)
        recording.addLatency(start: 0.96, seconds: 0.04)
        recording.addLatency(start: 1.52, seconds: 0.01)
        recording.addLatency(start: 1.55, seconds: 0.03)
        for k in 3...9 { recording.add(time: Double(k) * 0.1, bytes: Int64(12_500 * (k - 2))) }
        recording.add(time: 0.96, bytes: 95_000)
        for k in 11...20 { recording.add(time: Double(k) * 0.1, bytes: Int64(95_000 + 12_500 * (k - 10))) }
        return recording
    }

    @Test("each step's latency is the mean of the requests begun in it, else the last known (the first before any)")
    func latencySteps() {
        let steps = Self.waiting.steps(excludingLatency: true)
        #expect(steps.count == 20)
        let latencies = steps.map { $0.latency ?? -1 }
        #expect(Self.close(Array(latencies[0..<9]), Array(repeating: 0.2, count: 9)))
        #expect(Self.close(Array(latencies[9..<15]), Array(repeating: 0.04, count: 6)))
        #expect(Self.close([latencies[15]], [0.02]))
        #expect(Self.close(Array(latencies[16...]), Array(repeating: 0.02, count: 4)))
        #expect(ThroughputRecordingTests.recording.steps(excludingLatency: true).allSatisfy { $0.latency == nil })
    }

    @Test("a bin waiting throughout takes the last second's mean rate, and the bytes handed over in it count in the next bin measured")
    func waitingBinBytesCarried() {
        var recording = ThroughputRecording()
        recording.add(time: 0.1, bytes: 12_500)
        recording.addLatency(start: 0.1, seconds: 0.1)
        recording.add(time: 0.15, bytes: 15_000)
        recording.add(time: 0.3, bytes: 27_500)
        let rates = recording.steps(excludingLatency: true).map(\.bitsPerSecond)
        // Bin 1: bin 0's 1 Mbit/s; bin 2: 12,500 + 2,500 bytes in 0.1 s.
        #expect(Self.close(rates, [1e6, 1e6, 1.2e6]), "\(rates)")
    }

    @Test("with latency, a trace that ends in waits keeps its bytes: the bins carrying them get their rate over the time not waiting")
    func traceEndingInWaits() {
        // Two requests on a fast link with a 250 ms head delay: each body arrives within 5 ms of its head,
        // and the next request starts at once, so no 0.1 s bin is measured.
        var recording = ThroughputRecording()
        recording.addLatency(start: 0, seconds: 0.25)
        recording.add(time: 0.255, bytes: 50_000)
        recording.addLatency(start: 0.256, seconds: 0.25)
        recording.add(time: 0.511, bytes: 100_000)
        let rates = recording.steps(excludingLatency: true).map(\.bitsPerSecond)
        // 100,000 bytes over the 11 ms of those bins not spent waiting (6 ms in bin 2, 5 ms in the last).
        #expect(rates.count == 6)
        #expect(rates.allSatisfy { $0 > 0 }, "\(rates)")
        #expect(Self.close(rates, Array(repeating: 800_000 / 0.011, count: 6)), "\(rates)")
    }

    @Test("with latency, bins before the first byte are the check starting, not an empty link: they take the first rate measured")
    func binsBeforeFirstByte() {
        // The first request starts 150 ms after the check began (a slow start, a busy machine).
        var recording = ThroughputRecording()
        recording.addLatency(start: 0.15, seconds: 0.05)
        for k in 3...10 { recording.add(time: Double(k) * 0.1, bytes: Int64(12_500 * (k - 2))) }
        let rates = recording.steps(excludingLatency: true).map(\.bitsPerSecond)
        #expect(Self.close(rates, Array(repeating: 1e6, count: 10)), "\(rates)")
        // Mahimahi's keeps them as measured: nothing arrived.
        #expect(Self.close(Array(recording.steps.map(\.bitsPerSecond)[0..<2]), [0, 0]))
    }

    @Test("with latency, a bin's rate is over the time not spent waiting; a bin waiting throughout takes the rate measured after it, or the last second's")
    func latencyBins() {
        let rates = Self.waiting.steps(excludingLatency: true).map(\.bitsPerSecond)
        // Bins 0 and 1 wait: the first measured rate (bin 2, 1 Mbit/s). Bin 9 waits 40 ms of 100 and
        // carries 7,500 bytes: 1 Mbit/s over the 60 ms left. Bin 15 waits 10 + 30 ms and carries 12,500
        // bytes: 100 kbit over 60 ms.
        var expected = Array(repeating: 1e6, count: 20)
        expected[15] = 1e5 / 0.06
        #expect(Self.close(rates, expected), "\(rates)")
        // Without latency (Mahimahi's), the waits stay in: bins 0 and 1 carry nothing, bin 9 60 kbit in 0.1 s.
        let kept = Self.waiting.steps.map(\.bitsPerSecond)
        #expect(Self.close(Array(kept[0..<3]), [0, 0, 1e6]) && Self.close([kept[9]], [0.6e6]))
    }

    @Test("the sabre and bufprobe formats carry latency_ms, which simulate --trace reads back")
    func latencyFormats() throws {
        let sabre = Self.waiting.render(.sabre, source: "x")
        #expect(sabre.contains("{\"duration_ms\": 100, \"bandwidth_kbps\": 1000, \"latency_ms\": 200}"))
        #expect(sabre.contains("\"latency_ms\": 20}"))
        let directory = try CheckServers.temporaryDirectory("bufprobe-sabre-latency")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("trace.json").path
        try sabre.write(toFile: path, atomically: true, encoding: .utf8)
        let trace = try SimulationTraceFile.load(path)
        #expect(Self.close(trace.steps.map { $0.latency ?? -1 }, Self.waiting.steps(excludingLatency: true).map { $0.latency ?? -1 }))
        let text = Self.waiting.render(.bufprobe, source: "x")
        let rows = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(rows.first == "0 1 200" && rows[15] == "1.5 1.666667 20", "\(rows)")
        let columns = try NetworkTrace.parseColumns(text)
        #expect(Self.close(columns.steps.map { $0.latency ?? -1 }, trace.steps.map { $0.latency ?? -1 }))
        // Without a request timed, the bufprobe format stays two columns.
        #expect(Self.recording.render(.bufprobe, source: "x").split(separator: "\n").allSatisfy { $0.split(separator: " ").count == 2 || $0.hasPrefix("#") })
    }

    @Test("the mahimahi format has one whole-millisecond line per 1500 bytes the link carried")
    func mahimahiFormat() {
        let lines = Self.recording.render(.mahimahi, source: "x").split(separator: "\n").compactMap { Int($0) }
        // 500,000 bytes plus the 1 s not loading at 2 Mbit/s (250,000 bytes) the trace fills in.
        #expect(lines.count == 750_000 / 1500)
        // 1500 bytes at 1 Mbit/s take 12 ms: 83 by 996 ms, 500 bytes left over; at 2 Mbit/s, 6 ms each.
        #expect(Array(lines.prefix(2)) == [12, 24])
        #expect(lines[82] == 996 && lines[83] == 1004 && lines[84] == 1010)
        #expect(lines == lines.sorted())
        #expect(lines.last == 4000)
    }
}
