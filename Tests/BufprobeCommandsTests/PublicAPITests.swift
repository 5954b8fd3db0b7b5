import BufprobeCommands
import Foundation
import PlaybackModel
import Testing
import TestSupport
import ProbeEngine
import SimulateEngine

/// The fields of `probe --json` the facade types, decoded from the binary's own output.
private struct ProbeFields: Decodable {
    struct Format: Decodable {
        var name: String
        var longName: String
        var duration: Double?
        var startTime: Double?
        var size: Int64?
    }
    struct Stream: Decodable {
        var index: Int
        var type: String
        var codec: String
        var packets: Int
        var corruptPackets: Int
        var keyframes: Int
        var bytes: Int64
        var loadedRanges: [[Double]]
    }
    struct Gap: Decodable {
        var start: Double
        var end: Double
    }
    var source: String
    var format: Format?
    var streams: [Stream]
    var playableStreams: [Int]
    var loadedRanges: [[Double]]
    var gaps: [Gap]
    var complete: Bool
    var warnings: [String]
    var error: String?
}

/// The fields of `simulate --json` the facade types.
private struct SimulateFields: Decodable {
    var started: Bool
    var startupDelay: Double
    var stalls: [QoEReport.Stall]
    var stallTime: Double
    var rebufferRatio: Double?
    var ended: Bool
    var sessionTime: Double
}

private func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    return try decoder.decode(type, from: Data(text.utf8))
}

/// `read_time` is each read's own wall-clock time: the only figure two reads of one file may differ in.
private func withoutReadTime(_ json: String) -> String {
    json.replacingOccurrences(of: #""read_time" : [0-9.e+-]+"#, with: #""read_time" : 0"#, options: .regularExpression)
}

private func pairs(_ spans: [ProbeSummary.TimeSpan]) -> [[Double]] { spans.map { [$0.start, $0.end] } }

@Suite("The public Swift API (MediaProbe, NetworkSimulation) against the binary", .ffmpegLog)
struct PublicAPITests {
    @Test(
        "probe's summary and json equal what bufprobe probe --json prints",
        arguments: [("h264-aac.mp4", 0), ("gap.ts", 0), ("truncated.mp4", 3)])
    func probeMatchesBinary(name: String, exitCode: Int32) async throws {
        let path = BufprobeProcess.sample(name)
        let binary = try BufprobeProcess.run(["probe", "--json", path])
        #expect(binary.status == exitCode)
        let summary = try await MediaProbe.probe(path)
        #expect(withoutReadTime(summary.json) == withoutReadTime(binary.stdout))
        #expect(summary.json.contains(#""read_time""#))

        let fields = try decode(ProbeFields.self, binary.stdout)
        #expect(summary.source == fields.source)
        #expect(summary.format?.name == fields.format?.name)
        #expect(summary.format?.longName == fields.format?.longName)
        #expect(summary.duration == fields.format?.duration)
        #expect(summary.format?.startTime == fields.format?.startTime)
        #expect(summary.format?.size == fields.format?.size)
        #expect(summary.streams.map(\.index) == fields.streams.map(\.index))
        #expect(summary.streams.map(\.kind.rawValue) == fields.streams.map(\.type))
        #expect(summary.streams.map(\.codec) == fields.streams.map(\.codec))
        #expect(summary.streams.map(\.packets) == fields.streams.map(\.packets))
        #expect(summary.streams.map(\.corruptPackets) == fields.streams.map(\.corruptPackets))
        #expect(summary.streams.map(\.keyframes) == fields.streams.map(\.keyframes))
        #expect(summary.streams.map(\.bytes) == fields.streams.map(\.bytes))
        #expect(summary.streams.map { pairs($0.loadedRanges) } == fields.streams.map(\.loadedRanges))
        #expect(summary.playableStreams == fields.playableStreams)
        #expect(pairs(summary.loadedRanges) == fields.loadedRanges)
        #expect(summary.gaps.map { [$0.start, $0.end] } == fields.gaps.map { [$0.start, $0.end] })
        #expect(summary.complete == fields.complete)
        #expect(summary.truncated == (exitCode == 3))
        #expect(summary.readError == fields.error)
        #expect(summary.warnings == fields.warnings)
    }

    @Test("the samples show what the summary types: streams, a gap, a truncated file")
    func sampleFacts() async throws {
        let clip = try await MediaProbe.probe(BufprobeProcess.sample("h264-aac.mp4"))
        #expect(clip.complete && clip.gaps.isEmpty)
        #expect(clip.streams.map(\.kind) == [.video, .audio])
        #expect(clip.streams.allSatisfy { $0.packets > 0 })
        let gap = try await MediaProbe.probe(BufprobeProcess.sample("gap.ts"))
        #expect(!gap.gaps.isEmpty)
        #expect(gap.gaps.allSatisfy { $0.duration > 0 })
        let truncated = try await MediaProbe.probe(BufprobeProcess.sample("truncated.mp4"))
        #expect(!truncated.complete && truncated.truncated)
        #expect(!truncated.warnings.isEmpty)
    }

    @Test("a missing file throws the sentence bufprobe probe prints")
    func probeErrorSentence() async throws {
        let path = "/nonexistent/bufprobe-public-api.mp4"
        let binary = try BufprobeProcess.run(["probe", path])
        #expect(binary.status == 2)
        let error = await #expect(throws: ProbeError.self) { _ = try await MediaProbe.probe(path) }
        #expect(error?.description.isEmpty == false)
        #expect(binary.stderr == "error: \(error?.description ?? "")\n")
    }

    @Test("the library's bandwidth is bits per second by its type: 800 simulates 800 bit/s, and only 0 is refused")
    func simulateBandwidthIsBits() async throws {
        let path = BufprobeProcess.sample("h264-aac.mp4")
        let slow = try await NetworkSimulation.simulate(path, bandwidth: 800)
        #expect(slow.started && slow.startupDelay > 100, "27 kB before the start at 100 bytes per second: \(slow.startupDelay)")
        await #expect(throws: SimulationError.self) { try await NetworkSimulation.simulate(path, bandwidth: 0) }
    }

    @Test("simulate at 150 kbit/s gives bufprobe simulate --json's document and stalls")
    func simulateMatchesBinary() async throws {
        let path = BufprobeProcess.sample("h264-aac.mp4")
        let binary = try BufprobeProcess.run(["simulate", "--json", "--bandwidth", "150k", "--latency", "0", path])
        #expect(binary.status == 0)
        let summary = try await NetworkSimulation.simulate(path, bandwidth: 150_000)
        #expect(summary.json == binary.stdout)
        let fields = try decode(SimulateFields.self, binary.stdout)
        #expect(!summary.stalls.isEmpty)
        #expect(summary.stalls == fields.stalls)
        #expect(summary.started == fields.started)
        #expect(summary.startupDelay == fields.startupDelay)
        #expect(summary.stallTime == fields.stallTime)
        #expect(summary.rebufferRatio == fields.rebufferRatio)
        #expect(summary.ended == fields.ended)
        #expect(summary.sessionTime == fields.sessionTime)
        #expect(summary.qoe.stalls.count == summary.stalls.count)
    }

    @Test("latency and a policy reach the simulation as the command's options do")
    func simulateLatencyAndPolicy() async throws {
        let path = BufprobeProcess.sample("h264-aac.mp4")
        let binary = try BufprobeProcess.run([
            "simulate", "--json", "--bandwidth", "300k", "--latency", "0.2", "--start-threshold", "3",
            "--resume-threshold", "4", path,
        ])
        #expect(binary.status == 0)
        var policy = BufferPolicy.default
        policy = policy.overriding(startThreshold: 3, resumeThreshold: 4, forwardTarget: nil, backBuffer: nil)
        let summary = try await NetworkSimulation.simulate(path, bandwidth: 300_000, latency: 0.2, policy: policy)
        #expect(summary.json == binary.stdout)
    }

    @Test("media that cannot be read throws the sentence bufprobe simulate prints")
    func simulateErrorSentence() async throws {
        let path = "/nonexistent/bufprobe-public-api.mp4"
        let binary = try BufprobeProcess.run(["simulate", "--bandwidth", "1Mbit", path])
        #expect(binary.status == 2)
        let error = await #expect(throws: SimulationError.self) {
            _ = try await NetworkSimulation.simulate(path, bandwidth: 1_000_000)
        }
        #expect(error?.description.isEmpty == false)
        #expect(binary.stderr == "error: \(error?.description ?? "")\n")
    }
}
