// The library face of `probe` and `simulate`: a Swift program calls these instead of running the binary.
// Each call runs the same reader, plan, engine and report the command does, so the typed figures and the
// `json` document are the command's own; nothing here restates a rule.
import MediaIO
public import PlaybackModel
import CheckEngine
import BufprobeOutput

/// Probing a media file from Swift: what `bufprobe probe` does for one input.
///
/// ```swift
/// let summary = try await MediaProbe.probe("clip.mp4")
/// print(summary.format?.name ?? "?", summary.complete, summary.gaps.count)
/// ```
public enum MediaProbe {
    /// Reads every packet of `path` (a local path or a URL libavformat opens) and reports what is in it,
    /// as `bufprobe probe` with its default options (10 s `--timeout`, no `--latency`, `user_agent`
    /// bufprobe's for HTTP).
    ///
    /// The read runs on a thread of its own, not on Swift's cooperative pool. Cancelling the calling task
    /// stops the read: the summary then covers what was read, with `complete` false.
    ///
    /// The first call installs bufprobe's FFmpeg log sink for the process (FFmpeg's lines stop going to
    /// stderr; bufprobe keeps the error lines its sentences need).
    ///
    /// - Throws: `ProbeError` when the input cannot be opened or is not media (the command's exit code 2);
    ///   an input that opens but stops early (truncated, damaged) is a summary with `complete` false.
    public static func probe(_ path: String) async throws(ProbeError) -> ProbeSummary {
        LibrarySetup.once()
        let parent = Interrupter(timeout: nil)
        let (report, outcome) = await withTaskCancellationHandler {
            await BlockingThread.run(name: "bufprobe probe") { read(path, parent: parent) }
        } onCancel: {
            parent.cancel()
        }
        if outcome == .unreadable {
            throw ProbeError(description: report.error ?? "\(path) could not be read.")
        }
        // The command writes this document with `--json`; a report that cannot be encoded cannot happen
        // for the values a read produces, and would still leave the typed figures.
        let json = (try? JSONOutput.string(report)) ?? ""
        return ProbeSummary(report, json: json + "\n")
    }

    /// The command's reader setup for one input (Probe.run), without the live line and the plot.
    private static func read(_ path: String, parent: Interrupter) -> (ProbeReport, ProbeOutcome) {
        let timeout = 10.0
        var reader = ProbeReader(source: path)
        let scheme = path.prefix { $0 != ":" }.lowercased()
        if scheme.hasSuffix("http") || scheme.hasSuffix("https") {
            reader.options["user_agent"] = CheckSettings.defaultUserAgent
        }
        reader.interrupter = Interrupter(timeout: .bounded(seconds: timeout), parent: parent, input: path)
        reader.timeout = timeout
        reader.wantsProgress = { false }
        reader.diagnostics.latency = 0
        reader.diagnostics.extraStartupDelay = 2
        return reader.read()
    }
}

/// Why `MediaProbe.probe` could not read an input at all.
public struct ProbeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// bufprobe's sentence, the one `bufprobe probe` prints after `error: `.
    public var description: String
}

/// What `MediaProbe.probe` found in one input: the typed core of the `bufprobe probe --json` document,
/// and the document itself.
public struct ProbeSummary: Sendable, Hashable {
    /// The container, as the demuxer reports it.
    public struct Format: Sendable, Hashable {
        /// The demuxer's short name (`mov,mp4,m4a,3gp,3g2,mj2`, `mpegts`, `hls`...).
        public var name: String
        /// The demuxer's long name.
        public var longName: String
        /// The container's declared duration in seconds, when it declares one.
        public var duration: Double?
        /// The container's start time in seconds.
        public var startTime: Double?
        /// The input's size in bytes, when known.
        public var size: Int64?
    }

    /// What a stream carries.
    public enum StreamKind: String, Sendable, Hashable {
        /// Video.
        case video
        /// Audio.
        case audio
        /// Subtitles.
        case subtitle
        /// Timed data.
        case data
        /// An attached file.
        case attachment
        /// Anything else.
        case unknown
    }

    /// One stream and what its packets showed.
    public struct Stream: Sendable, Hashable {
        /// The stream's index in the container.
        public var index: Int
        /// What it carries.
        public var kind: StreamKind
        /// The codec's short name, as ffprobe's `codec_name`.
        public var codec: String
        /// Packets the demuxer returned, corrupt ones included.
        public var packets: Int
        /// Packets flagged corrupt.
        public var corruptPackets: Int
        /// Keyframe packets.
        public var keyframes: Int
        /// Payload bytes.
        public var bytes: Int64
        /// The stream's own loaded ranges, seconds.
        public var loadedRanges: [TimeSpan]
    }

    /// A stretch of media time, in seconds.
    public struct TimeSpan: Sendable, Hashable {
        /// Start, seconds.
        public var start: Double
        /// End, seconds.
        public var end: Double
        /// `end - start`, seconds.
        public var duration: Double { end - start }
    }

    /// The path or URL as given.
    public var source: String
    /// The container; `nil` only for documents of unreadable inputs, which `probe` throws instead.
    public var format: Format?
    /// The container's declared duration in seconds (`format.duration`), when any.
    public var duration: Double? { format?.duration }
    /// Every stream.
    public var streams: [Stream]
    /// The streams the playable ranges are computed from (best video and best audio), by index.
    public var playableStreams: [Int]
    /// Playable loaded ranges: where every playable stream has data.
    public var loadedRanges: [TimeSpan]
    /// Holes in the playable timeline.
    public var gaps: [TimeSpan]
    /// `false` when reading stopped before the end: truncated or damaged input, a read error, a timeout.
    public var complete: Bool
    /// `true` when reading stopped before the end (`!complete`).
    public var truncated: Bool { !complete }
    /// Why reading stopped early, when a read failed; `nil` otherwise.
    public var readError: String?
    /// Problems noticed, one sentence each (the document's `warnings`).
    public var warnings: [String]
    /// The document `bufprobe probe --json` writes for this input, trailing newline included. Its
    /// `read_time` is this read's own wall-clock time.
    public var json: String

    init(_ report: ProbeReport, json: String) {
        func spans(_ pairs: [[Double]]) -> [TimeSpan] {
            pairs.compactMap { pair in pair.count == 2 ? TimeSpan(start: pair[0], end: pair[1]) : nil }
        }
        source = report.source
        format = report.format.map {
            Format(name: $0.name, longName: $0.longName, duration: $0.duration, startTime: $0.startTime, size: $0.size)
        }
        streams = report.streams.map {
            Stream(
                index: $0.index, kind: StreamKind(rawValue: $0.type) ?? .unknown, codec: $0.codec, packets: $0.packets,
                corruptPackets: $0.corruptPackets, keyframes: $0.keyframes, bytes: $0.bytes,
                loadedRanges: spans($0.loadedRanges))
        }
        playableStreams = report.playableStreams
        loadedRanges = spans(report.loadedRanges)
        gaps = report.gaps.map { TimeSpan(start: $0.start, end: $0.end) }
        complete = report.complete
        readError = report.error
        warnings = report.warnings
        self.json = json
    }
}

/// Playing media over a simulated network from Swift: what `bufprobe simulate` does, in virtual time.
///
/// ```swift
/// let run = try await NetworkSimulation.simulate("clip.mp4", bandwidth: 2_000_000, latency: 0.04)
/// print(run.startupDelay, run.stalls.count, run.rebufferRatio)
/// ```
public enum NetworkSimulation {
    /// Downloads `media` (a local file, local HLS playlist or DASH manifest) over a network of constant
    /// `bandwidth` with `latency` per request, plays it with `policy`, and reports startup delay and
    /// stalls: `bufprobe simulate MEDIA --bandwidth B --latency L` (ranges download, first variant).
    ///
    /// The media is read on a thread of its own, not on Swift's cooperative pool.
    ///
    /// - Parameters:
    ///   - media: The path of the media.
    ///   - bandwidth: Bits per second, more than 0.
    ///   - latency: Seconds from each request to its first byte, 0 or more.
    ///   - policy: The player's buffer policy; `BufferPolicy.default` is the command's default.
    /// - Throws: `SimulationError` when the media cannot be read or a value is not usable.
    public static func simulate(
        _ media: String, bandwidth: Double, latency: Double = 0, policy: BufferPolicy = .default
    ) async throws(SimulationError) -> SimulationSummary {
        LibrarySetup.once()
        let outcome = await BlockingThread.run(name: "bufprobe simulate") {
            run(media, bandwidth: bandwidth, latency: latency, policy: policy)
        }
        return try outcome.get()
    }

    /// The command's plan, engine and report for these values.
    private static func run(
        _ media: String, bandwidth: Double, latency: Double, policy: BufferPolicy
    ) -> Result<SimulationSummary, SimulationError> {
        // The command parsed from the words a shell would pass: the same checks and sentences as the
        // binary. A Double's description reads back as the same Double; the bandwidth is in bits per second
        // by the parameter's type, so it is written with its unit (the command refuses a unit-less 500).
        let command: Simulate
        do {
            command = try Simulate.parse([media, "--bandwidth", "\(bandwidth)bit", "--latency", "\(latency)"])
        } catch {
            return .failure(SimulationError(description: Simulate.message(for: error)))
        }
        var plan: SimulationPlan
        do {
            plan = try SimulationPlan(options: command)
        } catch {
            return .failure(SimulationError(description: error.sentence))
        }
        do {
            try policy.validate()
        } catch {
            return .failure(SimulationError(description: "The buffer policy is not usable: \(error)"))
        }
        plan.policy = policy
        var engine = command.makeEngine(plan)
        engine.run()
        let report = command.makeReport(plan, engine)
        let json = (try? JSONOutput.string(report)) ?? ""
        return .success(SimulationSummary(report, qoe: engine.result.report, json: json + "\n"))
    }
}

/// Why `NetworkSimulation.simulate` could not run.
public struct SimulationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// bufprobe's sentence, the one `bufprobe simulate` prints for the same media and values.
    public var description: String
}

/// The outcome of `NetworkSimulation.simulate`: startup delay, stalls and the whole `--json` document.
public struct SimulationSummary: Sendable, Hashable {
    /// Whether playback ever started.
    public var started: Bool
    /// Seconds from pressing play to the first frame (rounded to the microsecond, as in `json`).
    public var startupDelay: Double
    /// Every stall: media position, session time it began, seconds it lasted (rounded as in `json`).
    public var stalls: [QoEReport.Stall]
    /// Seconds spent stalled in total.
    public var stallTime: Double
    /// Stall time over stall time plus playing time; `nil` when playback never started.
    public var rebufferRatio: Double?
    /// Whether playback reached the end of the media.
    public var ended: Bool
    /// Session time when the simulation stopped, seconds.
    public var sessionTime: Double
    /// The player's own QoE report, unrounded: every second of the session in one bucket.
    public var qoe: QoEReport
    /// The document `bufprobe simulate --json` writes for the same media and values, trailing newline
    /// included.
    public var json: String

    init(_ report: SimulateReport, qoe: QoEReport, json: String) {
        started = report.started
        startupDelay = report.startupDelay
        stalls = report.stalls
        stallTime = report.stallTime
        rebufferRatio = report.rebufferRatio
        ended = report.ended
        sessionTime = report.sessionTime
        self.qoe = qoe
        self.json = json
    }
}

/// Process-wide settings the commands make at start, made once for library callers.
private enum LibrarySetup {
    /// FFmpeg's log goes through bufprobe's sink (kept error lines, nothing on stderr), installed again at
    /// every call as each command does at its start (FFmpeg's log callback is one per process, and another
    /// part of the program may have installed its own since); the packet loop's allocator setting applies
    /// once.
    static func once() {
        FFmpegLog.install(logger: Diagnostics.logger(verbose: false), verbose: false)
        _ = tuned
    }

    private static let tuned: Bool = {
        PacketAllocator.tune()
        return true
    }()
}
