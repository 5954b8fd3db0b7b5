import Foundation
import MediaIO
import TestSupport
import Testing

/// `MediaInput(streaming:)`: libavformat reads bytes another thread appends while it reads.
@Suite("MediaInput(streaming:) reads media that arrives while it is read")
struct StreamingMemoryIOTests {
    /// Every packet's (stream, pts) of `input` until the end.
    private func packets(_ input: MediaInput) throws -> [[Double?]] {
        var result: [[Double?]] = []
        while let packet = try input.readPacket() { result.append([Double(packet.stream), packet.pts]) }
        return result
    }

    @Test("a fragmented MP4 appended in 10 kB slices every millisecond gives the same packets as the file (in byte order: the input is not seekable)")
    func slicesGiveTheFilesPackets() throws {
        let path = Samples.directory.appendingPathComponent("fragmented.mp4").path
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let interrupter = Interrupter(timeout: .seconds(5))
        let stream = try StreamingMemoryIO(interrupter: interrupter)
        let feeder = Thread {
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + 10_000)
                _ = try? stream.append(Array(bytes[offset..<end]))
                offset = end
                Thread.sleep(forTimeInterval: 0.001)
            }
            stream.finish()
        }
        feeder.start()
        let streamed = try MediaInput(streaming: stream, name: "fragmented.mp4", interrupter: interrupter)
        let fromFile = try MediaInput(url: path)
        #expect(streamed.streams.count == fromFile.streams.count)
        // Not seekable, the MP4 demuxer reads a fragment's samples in byte order, not interleaved by time.
        let order: ([Double?], [Double?]) -> Bool = { ($0[0] ?? 0, $0[1] ?? 0) < ($1[0] ?? 0, $1[1] ?? 0) }
        let (got, want) = (try packets(streamed).sorted(by: order), try packets(fromFile).sorted(by: order))
        #expect(got.count == want.count)
        let first = zip(got, want).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(first == nil, "first difference at packet \(first ?? -1): \(first.map { "\(got[$0]) vs \(want[$0])" } ?? "")")
    }

    @Test("a stream that stops growing ends the read at the timeout, and cancel ends it at once")
    func waitsAreBounded() throws {
        let path = Samples.directory.appendingPathComponent("fragmented.mp4").path
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let interrupter = Interrupter(timeout: .milliseconds(300))
        let stream = try StreamingMemoryIO(interrupter: interrupter)
        // The header and a little media, then nothing more.
        try stream.append(Array(bytes[..<60_000]))
        let began = ContinuousClock.now
        #expect(throws: FFmpegError.self) {
            let input = try MediaInput(streaming: stream, name: "stalled.mp4", interrupter: interrupter)
            while try input.readPacket() != nil {}
        }
        #expect(ContinuousClock.now - began < .seconds(3))
        #expect(interrupter.reason == .timeout)

        let cancelled = Interrupter(timeout: nil)
        let silent = try StreamingMemoryIO(interrupter: cancelled)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { cancelled.cancel() }
        let start = ContinuousClock.now
        #expect(throws: FFmpegError.self) { _ = try MediaInput(streaming: silent, name: "silent.mp4", interrupter: cancelled) }
        #expect(ContinuousClock.now - start < .seconds(2))
    }

    @Test("append refuses bytes after finish, and more than maxUnread unread bytes")
    func appendIsBounded() throws {
        let stream = try StreamingMemoryIO(interrupter: nil)
        #expect(throws: StreamingMemoryIO.AppendError.readerTooFarBehind) {
            try stream.append([UInt8](repeating: 0, count: StreamingMemoryIO.maxUnread + 1))
        }
        #expect(try stream.append([1, 2, 3]) == 0)
        #expect(stream.end == 3)
        stream.finish()
        #expect(throws: StreamingMemoryIO.AppendError.finished) { try stream.append([4]) }
    }
}
