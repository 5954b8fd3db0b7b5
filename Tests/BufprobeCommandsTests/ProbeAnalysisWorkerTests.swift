import BufprobeCommands
import MediaIO
import PlaybackModel
import Synchronization
import Testing
import TestSupport
import BufprobeOutput
import ProbeEngine

@Suite("ProbeAnalysisWorker: the analysis on a second thread")
struct ProbeAnalysisWorkerTests {
    /// A sample's packets as the demuxer returned them, repeated, shifted in time and bytes, to more than
    /// five batches, with a third stream (a copy of the audio) that the demuxer "adds" part-way through.
    private static func longPacketRun() throws -> (
        packets: [RawPacket], newStreamAt: Int, formatName: String, streams: [StreamInfo], converter: PacketConverter
    ) {
        let input = try MediaInput(url: BufprobeProcess.sample("h264-aac.mp4"))
        let converter = input.makePacketConverter()
        var once: [RawPacket] = []
        while let packet = try input.readRawPacket() { once.append(packet) }
        // A whole number of seconds past the last packet, in each stream's ticks.
        var seconds = converter
        let span = Int64((once.compactMap { seconds.packet($0).pts }.max() ?? 0).rounded(.up)) + 1
        let ticks = input.streams.map { span * Int64($0.timeBase.denominator) / Int64(max($0.timeBase.numerator, 1)) }
        let bytes = once.map { $0.position + Int64($0.size) }.max() ?? 0
        var packets: [RawPacket] = []
        var round: Int64 = 0
        var newStreamAt = -1
        while packets.count < ProbeAnalysisWorker.capacity * 5 + 17 {
            for var packet in once {
                let shift = round * ticks[Int(packet.stream)]
                packet.pts += shift
                packet.dts += shift
                packet.position += round * (bytes + 100_000)
                packets.append(packet)
                if round >= 2, packet.stream == 1 {
                    if newStreamAt < 0 { newStreamAt = packets.count }
                    packet.stream = 2
                    packets.append(packet)
                }
            }
            round += 1
        }
        return (packets, newStreamAt, input.format.name, input.streams, converter)
    }

    private static func analysis(formatName: String) -> ProbeAnalysis {
        var options = ProbeDiagnostics.Options()
        options.collectTimeline = true
        return ProbeAnalysis(
            streamsAreVideo: [true, false], tracker: LoadedRangeTracker(playableStreams: [0, 1]),
            diagnostics: ProbeDiagnostics(
                options: options, source: BufprobeProcess.sample("h264-aac.mp4"), formatName: formatName,
                playableStreams: [0, 1], video: 0, audio: 1))
    }

    @Test("packets handed over in batches (and progress hand-overs) give exactly what one loop on one thread gives")
    func batchesMatchOneThread() throws {
        let (packets, newStreamAt, formatName, streams, converter) = try Self.longPacketRun()
        #expect(packets.count > ProbeAnalysisWorker.capacity * 5 && newStreamAt > 0)

        var direct = Self.analysis(formatName: formatName)
        var directConverter = converter
        for (index, packet) in packets.enumerated() {
            if index + 1 == newStreamAt {
                direct.addStreams([false])
                directConverter.addStream(timeBase: streams[1].timeBase)
            }
            direct.add(directConverter.packet(packet))
        }

        let worker = ProbeAnalysisWorker(analysis: Self.analysis(formatName: formatName), converter: converter, onProgress: nil)
        var batch = worker.firstBatch()
        for (index, packet) in packets.enumerated() {
            if index + 1 == newStreamAt { batch.newStreams.append(streams[1]) }
            batch.append(packet)
            // Early hand-overs as the live line asks for them, at uneven places.
            if index % 777 == 5 {
                batch.progress = .some(nil)
                batch = worker.submit(batch)
            } else if batch.isFull {
                batch = worker.submit(batch)
            }
        }
        var threaded = worker.finish(batch)

        #expect(threaded.tallies.count == 3)
        #expect(threaded.tallies.count == direct.tallies.count)
        for (a, b) in zip(threaded.tallies, direct.tallies) {
            #expect(a.packets == b.packets && a.bytes == b.bytes && a.keyframes == b.keyframes)
            #expect(a.span?.start == b.span?.start && a.span?.end == b.span?.end)
            #expect(a.peakBitRate == b.peakBitRate && a.maxByteEnd == b.maxByteEnd)
            #expect(a.framesPerGOP?.avg == b.framesPerGOP?.avg && a.keyframeInterval?.max == b.keyframeInterval?.max)
        }
        #expect(threaded.tracker.playable == direct.tracker.playable)
        #expect(threaded.diagnostics.timeline == direct.diagnostics.timeline)

        // The diagnostics' figures, through the JSON they end up in.
        let (template, _) = ProbeReader(source: BufprobeProcess.sample("h264-aac.mp4")).read()
        var fromThreaded = template
        var fromDirect = template
        threaded.diagnostics.finish(into: &fromThreaded)
        direct.diagnostics.finish(into: &fromDirect)
        #expect(try JSONOutput.string(fromThreaded) == JSONOutput.string(fromDirect))
        // The longer run, not the sample's own figures.
        #expect(fromThreaded.bitRateProfile != template.bitRateProfile)
    }

    @Test("a progress hand-over reports the ranges analysed so far, on the worker's thread")
    func progressSeesTheBatch() throws {
        let (packets, _, formatName, _, converter) = try Self.longPacketRun()
        let seen = Mutex<[Double?]>([])
        let worker = ProbeAnalysisWorker(analysis: Self.analysis(formatName: formatName), converter: converter) { loaded, _ in
            seen.withLock { $0.append(loaded.end) }
        }
        var batch = worker.firstBatch()
        for packet in packets.prefix(2_000) {
            batch.append(packet)
            if batch.isFull { batch = worker.submit(batch) }
        }
        batch.progress = .some(nil)
        _ = worker.finish(batch)
        let ends = seen.withLock { $0 }
        #expect(ends.count == 1)
        #expect((ends.first ?? nil) ?? 0 > 0)
    }
}
