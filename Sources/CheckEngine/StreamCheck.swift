public import Logging
public import PlaybackModel
import Synchronization
import BufprobeOutput

/// Checks one stream or file as `bufprobe check` does: opens it, receives it in real time, plays it
/// through the model's player and gives a pass/degraded/fail verdict with the figures behind it.
///
/// ```swift
/// let check = StreamCheck("https://example.com/live/master.m3u8", options: .init(duration: 20))
/// Task { for await progress in check.progress() { print(progress.currentTime, progress.bufferedAhead) } }
/// let report = await check.run()
/// print(report.verdict, report.reason)
/// ```
///
/// The check's clock starts when `run()` is called (opening counts as startup delay). `run()` may be
/// called once; `cancel()` ends it early from any task, or before it began, and the report then says it
/// was interrupted. FFmpeg's log lines of the check go to the `logger` it was given, silent by default
/// (FFmpeg's log is one per process: each check installs bufprobe's sink as it is created and sends the
/// lines logged on its own reading thread to its logger).
public final class StreamCheck: Sendable {
    /// What a check does; the defaults are `bufprobe check`'s.
    public struct Options: Sendable {
        /// The player's thresholds (start, resume, forward-buffer target).
        public var policy: BufferPolicy
        /// Seconds to receive before stopping; `nil` receives a whole VOD, or a live stream's default
        /// sample (30 s).
        public var duration: Double?
        /// The longest one open or read may block, seconds.
        public var timeout: Double
        /// The longest startup delay that still passes, seconds (`thresholds.maxStartup`).
        public var maxStartup: Double {
            get { thresholds.maxStartup }
            set { thresholds.maxStartup = newValue }
        }
        /// The limits the verdict holds the stream to (`bufprobe check --max-stalls`...): by default any
        /// stall, a startup above 3 s or media received slower than real time (`minRealtimeFactor` 1) is
        /// degraded.
        public var thresholds = VerdictThresholds.default
        /// Extra HTTP request headers, `Name: value` each.
        public var headers: [String]
        /// The HTTP `User-Agent`; `nil` sends `bufprobe/VERSION`.
        public var userAgent: String?
        /// The pace a local file is delivered at (`check --rate`): `.realtime(1)` receives it as a stream
        /// playing in real time, `.bitsPerSecond(400_000)` as over a 400 kbit/s link; `nil` reads it as fast
        /// as the disk allows. Meant for local files (`check --rate` refuses it for a URL): on a network
        /// input it can only hold packets back further than the network did.
        public var rate: ReadRate?
        /// The HLS variant (DASH: video representation) to play (`check --variant`).
        public var variant: VariantChoice = .best
        /// Where a live HLS playlist is started (`check --live-start`).
        public var liveStart: LiveStart = .holdBack
        /// A real player's buffering policy (`check --player`): when set, it replaces `policy`.
        public var player: PlayerPreset?

        /// Options with `bufprobe check`'s defaults for every value not given.
        public init(
            policy: BufferPolicy = .default, duration: Double? = nil, timeout: Double = 10, maxStartup: Double = 3,
            headers: [String] = [], userAgent: String? = nil
        ) {
            self.policy = policy
            self.duration = duration
            self.timeout = timeout
            self.headers = headers
            self.userAgent = userAgent
            self.maxStartup = maxStartup
        }

        /// Options with `bufprobe check`'s defaults for every value not given, and the pace, variant,
        /// live start and player preset of `check --rate`, `--variant`, `--live-start` and `--player`.
        public init(
            policy: BufferPolicy = .default, duration: Double? = nil, timeout: Double = 10, maxStartup: Double = 3,
            headers: [String] = [], userAgent: String? = nil,
            rate: ReadRate?, variant: VariantChoice = .best, liveStart: LiveStart = .holdBack, player: PlayerPreset? = nil
        ) {
            self.init(policy: policy, duration: duration, timeout: timeout, maxStartup: maxStartup, headers: headers, userAgent: userAgent)
            self.rate = rate
            self.variant = variant
            self.liveStart = liveStart
            self.player = player
        }
    }

    /// The outcome of a check: pass, degraded or fail (the one verdict type every front end reports).
    public typealias Verdict = CheckVerdict

    /// What a check found, the figures of `bufprobe check --json`; every time counts from the playable
    /// start, in seconds.
    public struct Report: Sendable {
        /// The URL or path checked.
        public var source: String
        /// Pass, degraded or fail.
        public var verdict: Verdict
        /// One sentence saying why.
        public var reason: String
        /// Seconds from the start of the check until playback started; `nil` if it never did.
        public var startupDelay: Double?
        /// Every stall: where, when and for how long.
        public var stalls: [QoEReport.Stall]
        /// Seconds spent stalled.
        public var stallTime: Double
        /// Stall time over the time spent playing or stalled; `nil` when playback never started.
        public var rebufferRatio: Double?
        /// Seconds of media played.
        public var played: Double
        /// Wall seconds the check received for.
        public var sampledDuration: Double
        /// Whether the input is live (no declared duration).
        public var isLive: Bool
        /// Whether the whole input arrived.
        public var isComplete: Bool
        /// The playable time received.
        public var loadedRanges: [Range<Double>]
        /// What went wrong on the way without deciding the verdict.
        public var warnings: [String]
        /// The whole report as `bufprobe check --json` writes it.
        public var json: String
    }

    /// The state of a running check, as the live line draws it.
    public struct Progress: Sendable {
        /// Wall seconds since the check began.
        public var elapsed: Double
        /// The player's state; `nil` before the input opened.
        public var state: PlayerState?
        /// The playhead, from the playable start.
        public var currentTime: Double
        /// Seconds buffered ahead of the playhead.
        public var bufferedAhead: Double
        /// The media's duration from the playable start, when known.
        public var duration: Double?
        /// Stalls so far.
        public var stallCount: Int
    }

    /// The URL or path checked.
    public let source: String
    /// The options in force.
    public let options: Options
    private let settings: Result<CheckSettings, CheckSettings.Invalid>
    private let runner: CheckRunner
    private let logger: Logger
    /// The session once `run()` began, whether `cancel()` came first, whether it finished, and the progress
    /// streams it pushes to (`progress(every:)`).
    private let state = Mutex<(session: CheckSession?, cancelled: Bool, finished: Bool, streams: [ProgressStream])>(
        (nil, false, false, []))

    /// A progress stream: its pace, seconds, and its end.
    private struct ProgressStream: Sendable {
        let interval: Double
        let continuation: AsyncStream<Progress>.Continuation

        /// Hands `session`'s state to the stream now and each time `session`'s machine says it is due.
        func watch(_ session: CheckSession) {
            session.observeProgress(every: interval) { [continuation] in continuation.yield(Progress($0)) }
        }
    }

    /// A check of `source` with `options`; the FFmpeg log lines it reads go to `logger` (errors as `.error`,
    /// warnings as `.warning`, the rest at `.info` and below), and nowhere by default.
    public init(_ source: String, options: Options = Options(), logger: Logger = StreamCheck.silent) {
        self.source = source
        self.options = options
        // The one validating initializer every front end calls; options no check can use make `run()`
        // return a failed report saying which.
        do {
            settings = .success(try CheckSettings(
                timeout: Seconds(options.timeout), duration: options.duration.map(Seconds.init),
                policy: options.player == nil ? options.policy : nil, player: options.player, thresholds: options.thresholds,
                headers: options.headers, userAgent: options.userAgent, variant: options.variant, liveStart: options.liveStart,
                rate: options.rate))
        } catch {
            settings = .failure(error)
        }
        self.logger = logger
        // The process-wide sink stays silent; this check's own lines go to `logger` (`run`).
        runner = CheckRunner(logger: Self.silent)
    }

    /// The default logger: drops every line.
    public static let silent = Logger(label: "bufprobe") { _ in SwiftLogNoOpLogHandler() }

    /// Runs the check to its report (the blocking reads run on a thread of their own). Options no check
    /// can use (a timeout or sample not above 0, a header without `:`, an unusable policy or threshold)
    /// give a failed report at once, its reason naming the option.
    public func run() async -> Report {
        let settings: CheckSettings
        switch self.settings {
        case .success(let valid): settings = valid
        case .failure(let invalid):
            for stream in finishWatching() { stream.continuation.finish() }
            return Report(source: source, refusing: invalid)
        }
        let session = CheckSession(source: source, settings: settings)
        let streams = state.withLock { state in
            if state.cancelled { session.cancel() }
            state.session = session
            return state.streams
        }
        for stream in streams { stream.watch(session) }
        let report = await runner.report(of: session, logger: logger)
        // The ended state last, then the end of every stream.
        let last = Progress(session.progress())
        for stream in finishWatching() {
            stream.continuation.yield(last)
            stream.continuation.finish()
        }
        return Report(report)
    }

    /// Marks the check finished and hands over the progress streams still open, for the caller to end.
    private func finishWatching() -> [ProgressStream] {
        state.withLock { state in
            state.finished = true
            defer { state.streams = [] }
            return state.streams
        }
    }

    /// Stops the check as soon as FFmpeg next polls; `run()` then returns an interrupted report.
    public func cancel() {
        state.withLock { state in
            state.cancelled = true
            state.session?.cancel()
        }
    }

    /// The check's state every `interval` until it ends (the first at once, the ended state last), pushed
    /// by the check when its machine says a snapshot is due on the check's clock.
    public func progress(every interval: Duration = .milliseconds(500)) -> AsyncStream<Progress> {
        AsyncStream { continuation in
            let stream = ProgressStream(interval: interval.seconds, continuation: continuation)
            let (session, finished) = state.withLock { state in
                if !state.finished { state.streams.append(stream) }
                return (state.session, state.finished)
            }
            if let session { stream.watch(session) } else {
                continuation.yield(Progress(elapsed: 0, state: nil, currentTime: 0, bufferedAhead: 0, duration: nil, stallCount: 0))
            }
            if finished { continuation.finish() }
        }
    }
}

extension StreamCheck.Progress {
    /// The public face of a check's state.
    init(_ now: CheckProgress) {
        self.init(
            elapsed: now.elapsed, state: now.state, currentTime: now.currentTime, bufferedAhead: now.bufferedAhead,
            duration: now.duration, stallCount: now.stallPositions.count)
    }
}

extension StreamCheck.Report {
    init(_ report: CheckReport) {
        source = report.source
        verdict = report.verdict
        reason = report.reason
        startupDelay = report.startupDelay
        stalls = report.stalls
        stallTime = report.stallTime
        rebufferRatio = report.rebufferRatio
        played = report.played
        sampledDuration = report.sampledDuration
        isLive = report.live
        isComplete = report.complete
        loadedRanges = report.loadedRanges.compactMap { pair in
            guard pair.count == 2, pair[0] <= pair[1] else { return nil }
            return pair[0]..<pair[1]
        }
        warnings = report.warnings
        json = (try? JSONOutput.string(report)) ?? "{}"
    }

    /// The report of a check its options did not allow to start: failed, with the sentence naming the
    /// option; its `json` holds `source`, `verdict` and `reason` only.
    init(source: String, refusing invalid: CheckSettings.Invalid) {
        self.source = source
        verdict = .fail
        reason = "the check's options are not usable: " + invalid.sentence { value in
            switch value {
            case .timeout: "timeout"
            case .maxStartup: "maxStartup"
            case .duration: "duration"
            }
        }
        startupDelay = nil
        stalls = []
        stallTime = 0
        rebufferRatio = nil
        played = 0
        sampledDuration = 0
        isLive = false
        isComplete = false
        loadedRanges = []
        warnings = []
        json = (try? JSONOutput.string(["source": source, "verdict": verdict.rawValue, "reason": reason])) ?? "{}"
    }
}
