import Foundation
import MediaIO
import TestSupport
import Testing

@Suite("MediaInput reads what ffprobe reads")
struct MediaInputTests {
    @Test("there are samples to compare against")
    func samplesExist() {
        #expect(Samples.media.count >= 10, "run samples/make-samples.sh")
    }

    @Test("every stream's packet count equals ffprobe's nb_read_packets", arguments: Samples.media)
    func packetCountsMatchFFprobe(path: String) throws {
        let reference = try Samples.ffprobe(path)
        let input = try MediaInput(url: path)
        var counts: [Int: Int] = [:]
        while true {
            do {
                guard let packet = try input.readPacket() else { break }
                counts[packet.stream, default: 0] += 1
            } catch {
                break  // ffprobe also stops at the first read error
            }
        }
        for (index, expected) in reference.packets {
            #expect(counts[index, default: 0] == expected, "stream \(index) of \(path)")
        }
        #expect(input.streams.count == reference.packets.count)
    }

    @Test("the container duration equals ffprobe's format duration within 1 ms", arguments: Samples.media)
    func durationMatchesFFprobe(path: String) throws {
        let reference = try Samples.ffprobe(path)
        let input = try MediaInput(url: path)
        switch (input.format.duration, reference.duration) {
        case let (ours?, theirs?): #expect(abs(ours - theirs) <= 0.001, "\(path): \(ours) vs \(theirs)")
        case (nil, nil): break
        default: Issue.record("\(path): duration \(String(describing: input.format.duration)) vs ffprobe \(String(describing: reference.duration))")
        }
    }

    @Test("raw packets converted on the side equal readPacket's, discontinuities and added streams included", arguments: Samples.media)
    func rawPacketsConvertLikeReadPacket(path: String) throws {
        let converted = try MediaInput(url: path)
        let raw = try MediaInput(url: path)
        var converter = raw.makePacketConverter()
        var knownStreams = raw.streams.count
        var count = 0
        while true {
            let expected: Packet?
            do { expected = try converted.readPacket() } catch { break }
            let packet = try raw.readRawPacket()
            #expect((expected == nil) == (packet == nil), "\(path): packet \(count)")
            guard let expected, let packet else { break }
            // The streams the demuxer added meanwhile, in order, as a reader on another thread is told them.
            for stream in raw.streams[knownStreams...] { converter.addStream(timeBase: stream.timeBase) }
            knownStreams = raw.streams.count
            #expect(converter.packet(packet) == expected, "\(path): packet \(count)")
            count += 1
        }
        #expect(count > 0)
        #expect(converter.discontinuities == converted.timestampDiscontinuities)
    }

    @Test("unknown timestamps become nil and known ones are finite seconds")
    func timestampsAreSeconds() throws {
        let input = try MediaInput(url: Samples.directory.appendingPathComponent("h264-aac.mp4").path)
        var sawKeyframe = false
        var count = 0
        while let packet = try input.readPacket() {
            count += 1
            if let pts = packet.pts { #expect(pts.isFinite && pts > -1 && pts < 60) }
            #expect(packet.size > 0)
            sawKeyframe = sawKeyframe || packet.isKeyframe
        }
        #expect(count > 100)
        #expect(sawKeyframe)
    }

    @Test("stream info carries codec, geometry and the ch_layout channel count")
    func streamInfo() throws {
        let input = try MediaInput(url: Samples.directory.appendingPathComponent("h264-aac.mp4").path)
        let video = try #require(input.bestVideoStream.map { input.streams[$0] })
        let audio = try #require(input.bestAudioStream.map { input.streams[$0] })
        #expect(video.codec == "h264")
        #expect(video.width != nil && video.height != nil)
        #expect(video.frameRate?.value != nil)
        #expect(audio.codec == "aac")
        #expect(audio.channels != nil && audio.sampleRate != nil)
        #expect(audio.channelLayout != nil)
    }

    @Test("a missing file throws FFmpegError with ENOENT and av_strerror's text")
    func missingFileThrows() {
        #expect {
            _ = try MediaInput(url: "/nonexistent/bufprobe-test.mp4")
        } throws: { error in
            guard let error = error as? FFmpegError else { return false }
            return error.isNotFound && error.operation == "avformat_open_input" && !error.message.isEmpty
        }
    }

    @Test("a text file without a text-like extension is invalid data")
    func textFileIsInvalidData() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bufprobe-not-media-\(getpid()).bin")
        try Data(String(repeating: "this is not media\n", count: 200).utf8).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        #expect {
            _ = try MediaInput(url: path.path)
        } throws: { error in
            (error as? FFmpegError)?.isInvalidData == true
        }
    }

    @Test("a cancelled interrupter aborts opening with AVERROR_EXIT")
    func cancelledInterrupterAbortsOpen() throws {
        let interrupter = Interrupter(timeout: .seconds(5))
        interrupter.cancel()
        #expect {
            _ = try MediaInput(url: Samples.directory.appendingPathComponent("h264-aac.mp4").path, interrupter: interrupter)
        } throws: { error in
            (error as? FFmpegError)?.isInterrupted == true
        }
        #expect(interrupter.reason == .cancelled)
    }
}
