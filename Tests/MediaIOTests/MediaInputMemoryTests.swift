import Foundation
import MediaIO
import TestSupport
import Testing

@Suite("MediaInput(bytes:) reads media held in memory")
struct MediaInputMemoryTests {
    /// Every packet of `input` as (stream, pts, size, position), until the end or the first error.
    private func packets(_ input: MediaInput) -> [[Double?]] {
        var result: [[Double?]] = []
        while let packet = try? input.readPacket() {
            result.append([Double(packet.stream), packet.pts, Double(packet.size), packet.position.map(Double.init)])
        }
        return result
    }

    @Test(
        "a file's bytes in memory give the same format, streams and packets as the file",
        arguments: Samples.media.filter { !$0.hasSuffix(".m3u8") })
    func memoryMatchesFile(path: String) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let file = try MediaInput(url: path)
        let memory = try MediaInput(bytes: bytes, name: (path as NSString).lastPathComponent)
        #expect(memory.format.name == file.format.name)
        #expect(memory.format.size == Int64(bytes.count))
        #expect(memory.streams == file.streams)
        let fromMemory = packets(memory)
        #expect(!fromMemory.isEmpty)
        #expect(fromMemory == packets(file))
    }

    @Test("bytes that are not media fail to open with an FFmpegError, not a crash")
    func garbageFailsToOpen() {
        #expect(throws: FFmpegError.self) { try MediaInput(bytes: [], name: "empty") }
        #expect(throws: FFmpegError.self) { try MediaInput(bytes: [UInt8](repeating: 0x5A, count: 4096), name: "noise") }
    }

    @Test("a playlist in memory does not open the local files it names")
    func playlistInMemoryOpensNoLocalFile() throws {
        let segment = Samples.directory.appendingPathComponent("hls/low/seg000.ts").path
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\n\(segment)\n#EXTINF:2.0,\nfile:\(segment)\n#EXT-X-ENDLIST\n"
        // The same playlist from a file reads the segment: the refusal below is the whitelist's doing.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("memory-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("list.m3u8").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        #expect(!packets(try MediaInput(url: path)).isEmpty)

        let memory = try? MediaInput(bytes: Array(text.utf8), name: "list.m3u8")
        #expect(memory.map(packets)?.isEmpty ?? true)
    }
}
