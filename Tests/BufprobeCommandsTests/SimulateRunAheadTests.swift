import BufprobeOutput
import Foundation
@testable import PlaybackModel
import Testing
import TestSupport
@testable import SimulateEngine

/// The plan for `media` (a sample's name, or a path) over `bandwidth` bits/s, with or without the run
/// beside the reading.
private func plan(
    _ media: String? = nil, script: String? = nil, bandwidth: Double?, player: PlayerPreset? = nil,
    download: DownloadMode? = nil, runsAhead: Bool
) throws -> SimulationPlan {
    var options = SimulationOptions()
    options.media = media.map { $0.hasPrefix("/") ? $0 : BufprobeProcess.sample($0) }
    options.script = script
    options.bandwidth = bandwidth.map { BitRate(bitsPerSecond: $0) }
    options.player = player
    options.download = download
    options.runsAhead = runsAhead
    return try SimulationPlan(options: options)
}

/// The JSON report of a plan's engine run after the reading, as without `runsAhead`.
private func reportAfterReading(_ plan: SimulationPlan) throws -> String {
    var engine = plan.makeEngine()
    engine.run()
    return try JSONOutput.string(plan.report(of: engine))
}

@Suite("simulate runs a single file's session beside its reading, and keeps it only when the loaded file confirms it")
struct SimulateRunAheadTests {
    @Test(
        "an MP4 whose header declares its frames, start and end: the run beside the reading is kept, and its report is byte for byte the run after it",
        arguments: [
            ("h264-aac.mp4", 3_000_000.0, nil as PlayerPreset?, nil as DownloadMode?),
            ("h264-aac.mp4", 200_000, nil, nil),
            ("h264-aac.mp4", 600_000, .hlsjs, nil),
            ("h264-aac.mp4", 600_000, .shaka, nil),
            ("dense-start.mp4", 400_000, nil, nil),
            ("h264-aac-moov-at-end.mp4", 500_000, nil, nil),
            ("h264-aac-moov-at-end.mp4", 500_000, nil, .sequential),
        ])
    func kept(sample: String, bandwidth: Double, player: PlayerPreset?, download: DownloadMode?) throws {
        let ahead = try plan(sample, bandwidth: bandwidth, player: player, download: download, runsAhead: true)
        let finished = try #require(ahead.finishedEngine, "the run beside the reading was dropped")
        #expect(finished.isFinished)
        let after = try plan(sample, bandwidth: bandwidth, player: player, download: download, runsAhead: false)
        #expect(after.finishedEngine == nil)
        #expect(try JSONOutput.string(ahead.report(of: finished)) == reportAfterReading(after))
    }

    @Test("a file whose packets fall short of what its header declares (a cut MP4): the run is dropped and the report is the run after the reading")
    func droppedOnShortFile() throws {
        let ahead = try plan("truncated.mp4", bandwidth: 1_000_000, runsAhead: true)
        #expect(ahead.finishedEngine == nil)
        let after = try plan("truncated.mp4", bandwidth: 1_000_000, runsAhead: false)
        #expect(try reportAfterReading(ahead) == reportAfterReading(after))
    }

    @Test("a seek out of the buffer needs the file's seek points, which only the whole file gives: the run is dropped")
    func droppedOnSeek() throws {
        let script = URL(fileURLWithPath: BufprobeProcess.sample("scripts/seek-and-pause.yaml")).path
        let ahead = try plan(script: script, bandwidth: nil, runsAhead: true)
        #expect(ahead.finishedEngine == nil)
        let after = try plan(script: script, bandwidth: nil, runsAhead: false)
        #expect(try reportAfterReading(ahead) == reportAfterReading(after))
    }

    @Test("formats whose header declares no frame counts (Matroska, MPEG-TS, fragmented MP4) are simulated after the reading")
    func notTried() throws {
        for sample in ["vp9-opus.mkv", "h264-aac.ts", "fragmented.mp4"] {
            let ahead = try plan(sample, bandwidth: 1_000_000, runsAhead: true)
            #expect(ahead.finishedEngine == nil, "\(sample)")
        }
    }

    @Test("the unit buffer: byte ends become the running maximum, units are readable in batches and at the close, and a run past the end or past the declared count is wasted")
    func unitBuffer() {
        func unit(_ start: Int64, _ size: Int64) -> SimulationMedia.Unit {
            SimulationMedia.Unit(
                byteStart: start, byteEnd: start + size, stream: 0, start: Double(start), duration: 1, isKeyframe: true)
        }
        let buffer = SimulationUnitBuffer(capacity: 3)
        buffer.append(unit(100, 50))
        buffer.append(unit(0, 10))
        buffer.close()
        #expect(buffer.available(through: 1) == 2)
        #expect(buffer.base[1].byteEnd == 150)
        #expect(buffer.isComplete)
        // The header declared 3 units; the reading gave 2.
        #expect(buffer.available(through: 2) == nil)
        #expect(!buffer.isComplete)

        let over = SimulationUnitBuffer(capacity: 1)
        over.append(unit(0, 10))
        over.append(unit(10, 10))
        over.close()
        #expect(over.count == 1)
        #expect(!over.isComplete)

        let sought = SimulationUnitBuffer(capacity: 1)
        sought.append(unit(0, 10))
        sought.close()
        sought.invalidate()
        #expect(!sought.isComplete)
    }

    @Test("a run waiting for a unit still to be read goes on once the reading publishes it")
    func waitsForUnits() {
        let buffer = SimulationUnitBuffer(capacity: SimulationUnitBuffer.batch + 1)
        let answered = DispatchSemaphore(value: 0)
        let answer = Answer()
        // A thread of its own: the wait blocks it.
        Thread {
            answer.value = buffer.available(through: 10)
            answered.signal()
        }.start()
        for index in 0...SimulationUnitBuffer.batch {
            buffer.append(
                SimulationMedia.Unit(
                    byteStart: Int64(index), byteEnd: Int64(index + 1), stream: 0, start: 0, duration: 0,
                    isKeyframe: true))
        }
        #expect(answered.wait(timeout: .now() + 10) == .success)
        #expect(answer.value == SimulationUnitBuffer.batch)
        buffer.close()
        #expect(buffer.available(through: SimulationUnitBuffer.batch) == SimulationUnitBuffer.batch + 1)
        #expect(buffer.isComplete)
    }
}

/// What the waiting thread got, read after it signalled.
private final class Answer: @unchecked Sendable {
    var value: Int?
}
