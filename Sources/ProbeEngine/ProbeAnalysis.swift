package import MediaIO
package import PlaybackModel
package import InputReading

/// Everything `probe` computes from the packets, in read order: per-stream tallies, loaded ranges and
/// the buffering diagnostics. ProbeReader's reading thread hands packets over in batches
/// (`ProbeAnalysisWorker`), so this runs beside the demuxer instead of between its calls.
package struct ProbeAnalysis: Sendable {
    /// One tally per stream, indexed by stream index.
    package private(set) var tallies: [StreamTally]
    /// Loaded ranges, per stream and playable.
    package private(set) var tracker: LoadedRangeTracker
    /// Needs, interleave, bit-rate profile, plot data.
    package var diagnostics: ProbeDiagnostics

    /// Starts with a tally for each of the streams known at open (`isVideo` per stream, in index order).
    package init(streamsAreVideo: [Bool], tracker: LoadedRangeTracker, diagnostics: ProbeDiagnostics) {
        tallies = streamsAreVideo.map { StreamTally(isVideo: $0) }
        self.tracker = tracker
        self.diagnostics = diagnostics
    }

    /// Adds tallies for streams the demuxer added while reading (`isVideo` per new stream, in index order).
    package mutating func addStreams(_ streamsAreVideo: [Bool]) {
        for isVideo in streamsAreVideo { tallies.append(StreamTally(isVideo: isVideo)) }
    }

    /// Adds the next packet in read order.
    package mutating func add(_ packet: Packet) {
        if tallies.indices.contains(packet.stream) { tallies[packet.stream].add(packet) }
        let modelPacket = packet.modelPacket
        tracker.add(modelPacket)
        diagnostics.add(modelPacket)
    }
}

/// `probe`'s worker: the analysis beside the demuxer.
package typealias ProbeAnalysisWorker = PacketWorker<ProbeAnalysis>

extension ProbeAnalysis: PacketConsumer {
    /// Adds tallies for the streams the demuxer added while reading.
    package mutating func addStreams(_ streams: [StreamInfo]) { addStreams(streams.map { $0.type == .video }) }
}

extension PacketWorker where Consumer == ProbeAnalysis {
    /// A worker for `analysis`; `onProgress` is called on the worker's thread with the playable loaded
    /// ranges and the byte position of a batch that asked for progress.
    package convenience init(
        analysis: ProbeAnalysis, converter: PacketConverter, onProgress: (@Sendable (TimeRanges, Int64?) -> Void)?
    ) {
        var progress: (@Sendable (ProbeAnalysis, Int64?) -> Void)?
        if let onProgress {
            progress = { analysis, bytes in onProgress(analysis.tracker.playable, bytes) }
        }
        self.init(consumer: analysis, converter: converter, onProgress: progress)
    }
}
