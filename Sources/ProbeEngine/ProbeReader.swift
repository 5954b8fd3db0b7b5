import Foundation
package import MediaIO
package import PlaybackModel
import BufprobeOutput
import InputReading

/// Reads one input from the first packet to the last and turns what it saw into a `ProbeReport`:
/// the loop every `probe` shares, with truncation detection that does not trust libavformat's EOF.
package struct ProbeReader {
    /// What the live line is told while reading.
    package struct Progress: Sendable {
        /// Playable loaded ranges so far.
        package var loaded: TimeRanges
        /// The container's duration, when declared.
        package var duration: Double?
        /// The container's start time (MPEG-TS starts near 1.4 s), so the line can draw from 0.
        package var start: Double
        /// Bytes read so far; `nil` for playlists, whose own position says nothing about the media.
        package var bytes: Int64?
        /// Total bytes, when known.
        package var totalBytes: Int64?
        /// Seconds since opening started.
        package var elapsed: Double
        /// For a local HLS input, where its segments start (seconds from the media start), so the line
        /// can draw them as the segmented bar; `nil` for everything else.
        package var segmentStarts: [Double]?
    }

    /// The path or URL; with `bytes`, only the input's name.
    package var source: String
    /// The whole input, read from memory instead of opening `source` (the fuzz target's way in).
    package var bytes: [UInt8]?
    /// libavformat options passed at open.
    package var options: [String: String] = [:]
    /// Cancels reading from another thread (Ctrl-C), and bounds every wait on a URL (`--timeout`).
    package var interrupter: Interrupter?
    /// The interrupter's timeout in seconds, for the sentence that names it.
    package var timeout: Double?
    /// Called every `progressInterval` packets with the state so far, when `wantsProgress` agrees.
    package var onProgress: (@Sendable (Progress) -> Void)?
    /// Asked before building a progress value (the live line's rate limit), so the packet loop does
    /// not compute ranges nobody draws.
    package var wantsProgress: @Sendable () -> Bool = { true }
    /// Packets between two progress calls.
    package var progressInterval = 16
    /// What the buffering diagnostics compute (needs tables, latency, plot data).
    package var diagnostics = ProbeDiagnostics.Options()

    /// Creates a reader for `source`.
    package init(source: String) { self.source = source }

    /// Opens and reads the input. Never throws: failures become the report's `error` and outcome.
    package func read() -> (report: ProbeReport, outcome: ProbeOutcome) {
        let (report, outcome, _) = readWithTimeline()
        return (report, outcome)
    }

    /// `read()`, plus the per-second bytes and keyframes for a plot when `diagnostics.collectTimeline`
    /// is set and the input could be read.
    package func readWithTimeline() -> (report: ProbeReport, outcome: ProbeOutcome, timeline: BitRateTimeline?) {
        let clock = ContinuousClock()
        let started = clock.now
        func seconds() -> Double { (clock.now - started).seconds }
        var report = ProbeReport(
            source: source, format: nil, packetSpan: nil, streams: [], playableStreams: [], loadedRanges: [],
            gaps: [], complete: false, readTime: 0, warnings: [], error: nil)
        if bytes == nil, let problem = InputCheck.problem(with: source) {
            report.error = problem
            return (report, .unreadable, nil)
        }
        FFmpegLog.clearRecentErrors()
        let input: MediaInput
        do {
            if let bytes {
                input = try MediaInput(bytes: bytes, name: source, options: options, interrupter: interrupter)
            } else {
                input = try MediaInput(url: InputKind.ffmpegURL(for: source), options: options, interrupter: interrupter)
            }
        } catch {
            report.error = interrupter?.reason?.sentence(for: source, timeout: timeout, opening: true)
                ?? interrupter?.skipped.first?.openFailure(for: source)
                ?? error.sentence(for: source, unresolvedHost: Self.unresolvedHost())
            report.warnings += skippedWarnings
            report.readTime = JSONOutput.seconds(seconds())
            return (report, .unreadable, nil)
        }
        for key in input.unusedOptions {
            report.warnings.append("Option '\(key)' was not used by FFmpeg for \(source) (misspelled or not relevant to this input).")
        }
        if let problem = InputCheck.problem(with: source, formatName: input.format.name) {
            report.error = problem
            report.readTime = JSONOutput.seconds(seconds())
            return (report, .unreadable, nil)
        }
        guard !input.streams.isEmpty else {
            report.error = "\(source) contains no streams."
            report.readTime = JSONOutput.seconds(seconds())
            return (report, .unreadable, nil)
        }
        let playable = PlaybackSession.playableStreams(from: input.streamCandidates())
        report.warnings += MissingParameters.warnings(source: source, streams: input.streams, playable: playable)
        let segmentStarts = input.format.container == .hls && bytes == nil ? segmentStarts() : nil
        // Playlist demuxers read their packets from other resources; the input's own byte position and
        // size are the playlist's.
        let readsOtherFiles = input.format.readsOtherResources
        let initialDiagnostics = ProbeDiagnostics(
            options: diagnostics, source: source, bytes: bytes, formatName: input.format.name, playableStreams: playable,
            video: input.bestVideoStream, audio: input.bestAudioStream)
        var progressCall: (@Sendable (TimeRanges, Int64?) -> Void)?
        if let onProgress {
            let (duration, start, totalBytes) = (input.format.duration, input.format.startTime ?? 0, input.format.size)
            progressCall = { loaded, bytes in
                onProgress(Progress(
                    loaded: loaded, duration: duration, start: start, bytes: bytes, totalBytes: totalBytes,
                    elapsed: (clock.now - started).seconds, segmentStarts: segmentStarts))
            }
        }
        // The analysis runs on its own thread, a batch of packets behind this loop.
        let worker = ProbeAnalysisWorker(
            analysis: ProbeAnalysis(
                streamsAreVideo: input.streams.map { $0.type == .video }, tracker: LoadedRangeTracker(playableStreams: playable),
                diagnostics: initialDiagnostics),
            converter: input.makePacketConverter(), onProgress: progressCall)
        var batch = worker.firstBatch()
        var knownStreams = input.streams.count
        var readError: FFmpegError?
        // Packets left until the next progress check: a countdown, not a division per packet.
        var untilProgress = max(progressInterval, 1)
        while true {
            let packet: RawPacket?
            do { packet = try input.readRawPacket() } catch {
                readError = error
                break
            }
            guard let packet else { break }
            // The demuxer may add a stream while reading (a new MPEG-TS PID); the input's list has it by now.
            if knownStreams < input.streams.count {
                batch.newStreams += input.streams[knownStreams...]
                knownStreams = input.streams.count
            }
            batch.append(packet)
            untilProgress -= 1
            if untilProgress == 0, onProgress != nil {
                untilProgress = max(progressInterval, 1)
                // The live line's rate limit: hand over what was read so the line shows it.
                if wantsProgress() {
                    batch.progress = .some(readsOtherFiles ? nil : input.bytePosition)
                    batch = worker.submit(batch)
                    continue
                }
            }
            if batch.isFull { batch = worker.submit(batch) }
        }
        let analysis = worker.finish(batch)
        let tallies = analysis.tallies
        let tracker = analysis.tracker
        var diagnostics = analysis.diagnostics
        let ffmpegErrors = FFmpegLog.recentErrors()
        report.format = ProbeReport.Format(
            name: input.format.name, longName: input.format.longName,
            duration: input.format.duration.map(JSONOutput.seconds),
            startTime: input.format.startTime.map(JSONOutput.seconds),
            bitRate: input.format.bitRate, size: input.format.size)
        report.playableStreams = playable
        report.streams = input.streams.map { info in
            let tally = tallies.indices.contains(info.index) ? tallies[info.index] : StreamTally(isVideo: info.type == .video)
            return Self.streamReport(info, tally, tracker)
        }
        let spans = tallies.compactMap(\.span)
        if let start = spans.map(\.start).min(), let end = spans.map(\.end).max() {
            report.packetSpan = ProbeReport.Span(
                start: JSONOutput.seconds(start), end: JSONOutput.seconds(end), duration: JSONOutput.seconds(end - start))
        }
        let loaded = tracker.playable
        report.loadedRanges = JSONOutput.pairs(loaded)
        report.gaps = zip(loaded.ranges, loaded.ranges.dropFirst()).map { before, after in
            ProbeReport.Gap(
                start: JSONOutput.seconds(before.end), end: JSONOutput.seconds(after.start),
                duration: JSONOutput.seconds(after.start - before.end))
        }

        var truncated = false
        if let readError {
            if readError.isInterrupted, let reason = interrupter?.reason {
                report.warnings.append(reason.sentence(for: source, timeout: timeout, opening: false))
            } else {
                report.warnings.append(readError.sentence(for: source, opening: false, unresolvedHost: Self.unresolvedHost()))
            }
            truncated = true
        }
        // libavformat reports most truncations as a normal end of file, so look for the signs.
        if let declared = input.format.duration, let span = report.packetSpan {
            switch TruncationRule.judge(.init(start: input.format.startTime, duration: declared), receivedEnd: span.end) {
            case .truncated:
                truncated = true
                report.warnings.append(
                    TruncationRule.sentence(source: source, declared: declared, read: span.end - (input.format.startTime ?? 0)))
            case .overrun:
                report.warnings.append(
                    "\(source): the container declares \(Self.format(declared)) but the packets run to \(Self.format(span.end)).")
            case .whole:
                break
            }
        }
        if !readsOtherFiles, let size = input.format.size, let byteEnd = tallies.compactMap(\.maxByteEnd).max(), byteEnd > size {
            truncated = true
            report.warnings.append(
                "\(source) looks truncated: a packet reaches byte \(byteEnd) but the input has only \(size) bytes.")
        }
        if let sentence = ContainerTail.sentence(source: source, formatName: input.format.name, size: input.format.size) {
            truncated = true
            report.warnings.append(sentence)
        }
        // FFmpeg's Matroska demuxer says so and still ends like a complete file.
        if ffmpegErrors.contains(where: { $0.event == .fileEndedPrematurely }) { truncated = true }
        // Only a single resource ends where its last packet does: an HLS segment boundary flags packets
        // corrupt too (continuity counters restart).
        for (index, tally) in tallies.enumerated() where tally.endsWithCorruptPacket && !readsOtherFiles {
            truncated = true
            report.warnings.append(
                "\(source) looks truncated: the last packet of stream \(index) is cut short (the input ends inside it).")
        }
        report.warnings += skippedWarnings
        // A resource the input leads to that failed (a segment answering 404): what it held is missing.
        if interrupter?.skipped.contains(where: { $0.kind == .failed }) == true { truncated = true }
        for line in ffmpegErrors {
            report.warnings.append("FFmpeg reported while reading \(source): \(line.text)")
        }
        for stream in report.streams {
            if stream.corruptPackets > 0 {
                report.warnings.append("Stream \(stream.index) of \(source) has \(stream.corruptPackets) corrupt packet(s).")
            }
            if stream.nonMonotonicDts > 0 {
                report.warnings.append(
                    "Stream \(stream.index) of \(source): decode timestamps go backwards \(stream.nonMonotonicDts) time(s).")
            }
            if stream.packets == 0, !input.streams[stream.index].isAttachedPicture {
                report.warnings.append("Stream \(stream.index) (\(stream.type) \(stream.codec)) of \(source) has no packets.")
            }
        }
        for gap in report.gaps {
            report.warnings.append(
                "\(source) has a gap from \(Self.format(gap.start)) to \(Self.format(gap.end)) (\(Self.format(gap.duration))): playback stalls or skips there.")
        }
        diagnostics.finish(into: &report)
        report.complete = !truncated
        report.readTime = JSONOutput.seconds(seconds())
        return (report, truncated ? .incomplete : .complete, diagnostics.timeline)
    }

    /// The first host FFmpeg's resolver failed on, from the errors it logged on this thread: FFmpeg itself
    /// returns only "Input/output error".
    private static func unresolvedHost() -> String? {
        for line in FFmpegLog.recentErrors() {
            if case .unresolvedHost(let host) = line.event { return host }
        }
        return nil
    }

    /// The resources the input led to that were refused or skipped, as warnings.
    private var skippedWarnings: [String] { (interrupter?.skipped ?? []).map { $0.sentence(for: source) } }

    /// Segment start times of an HLS playlist, local or remote (a master playlist's first variant, the
    /// one libavformat lists first), or `nil` when it cannot be read.
    func segmentStarts() -> [Double]? {
        func load(_ location: String) -> HLSPlaylist? {
            try? HLSPlaylist.load(location: location, options: options, interrupter: interrupter)
        }
        guard var playlist = load(source) else { return nil }
        if playlist.kind == .master {
            guard let first = playlist.variants.first, let media = load(HLSPlaylist.resolve(first.uri, against: source))
            else { return nil }
            playlist = media
        }
        var starts: [Double] = []
        var time = 0.0
        for segment in playlist.segments {
            starts.append(time)
            time += segment.duration
        }
        return starts.count >= 2 ? starts : nil
    }

    private static func streamReport(_ info: StreamInfo, _ tally: StreamTally, _ tracker: LoadedRangeTracker) -> ProbeReport.Stream {
        ProbeReport.Stream(
            index: info.index, type: info.type.rawValue, codec: info.codec, profile: info.profile,
            timeBase: info.timeBase.description, width: info.width, height: info.height, pixelFormat: info.pixelFormat,
            frameRate: info.frameRate?.value, sampleRate: info.sampleRate, channels: info.channels,
            channelLayout: info.channelLayout, disposition: info.disposition,
            declaredDuration: info.declaredDuration.map(JSONOutput.seconds), declaredBitRate: info.bitRate,
            packets: tally.packets, corruptPackets: tally.corruptPackets, bytes: tally.bytes, keyframes: tally.keyframes,
            span: tally.span.map {
                ProbeReport.Span(
                    start: JSONOutput.seconds($0.start), end: JSONOutput.seconds($0.end),
                    duration: JSONOutput.seconds($0.end - $0.start))
            },
            averageBitRate: tally.averageBitRate?.rounded(), peakBitRate: tally.peakBitRate?.rounded(),
            keyframeInterval: tally.keyframeInterval.map {
                ProbeReport.Interval(
                    min: JSONOutput.seconds($0.min), avg: JSONOutput.seconds($0.avg), max: JSONOutput.seconds($0.max))
            },
            gopFrames: tally.framesPerGOP.map {
                ProbeReport.Interval(min: $0.min, avg: ($0.avg * 1000).rounded() / 1000, max: $0.max)
            },
            nonMonotonicDts: tally.nonMonotonicDts,
            loadedRanges: JSONOutput.pairs(tracker.ranges(forStream: info.index)))
    }

    static func format(_ seconds: Double) -> String { TextFormat.seconds(seconds) }
}
