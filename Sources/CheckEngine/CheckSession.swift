import Foundation
package import MediaIO
import PlaybackModel
import Synchronization
import BufprobeOutput

/// One `check` of one input: opens it, receives it in real time on the calling thread, hands every packet
/// to the model's `PlaybackSession` at the wall-clock time it arrived, acts on the player's actions, and
/// turns what the player experienced into a `CheckReport` whose verdict is `Verdict.decide`'s.
///
/// The player is the only stall rule: it is created at clock 0 (the moment the check began, so opening
/// counts as startup delay), wants playback from the start, and is advanced with the session's `clock`
/// (the monotonic wall clock unless one is injected; every reading of time and every wait goes through it).
/// Once the input has ended no data can change the outcome, so the session plays out on the player's own
/// deadlines instead of being waited out.
///
/// `run()` blocks (libavformat calls block); run it on a thread of its own. `cancel()` and `progress()`
/// may be called from any thread.
package final class CheckSession: Sendable {
    /// The URL or path.
    package let source: String
    /// The options in force.
    package let settings: CheckSettings
    /// Bounds every libavformat wait; `cancel()` trips it.
    package let interrupter: Interrupter

    /// Cancelled with the check (`cancel()`), not by the end of a live sample: `--all-variants` runs after.
    let validation = Interrupter(timeout: nil)
    /// FFmpeg's log lines for this check, read on the reading thread.
    let lines = FFmpegLines()
    /// The live playlists FFmpeg reloads, judged as it loads them.
    private let playlists: PlaylistWatch
    /// How far behind the live edge the player is (`CheckSession+Live.swift`).
    let live: LiveEdgeWatch
    /// A live DASH input's manifest, clock and FFmpeg's requests (`CheckSession+DASHLive.swift`).
    let dash = DASHLiveWatch()
    /// The time source of every reading and wait.
    let clock: any CheckClock
    /// The clock's reading when the check began: clock 0.
    let started: Double
    private let samplingOver = Atomic<Bool>(false)
    let cancelled = Atomic<Bool>(false)
    /// `--cmcd`: the keys of each request after the first, from the player's state (`observe`).
    let cmcdRequests: CMCDRequests?
    /// Wakes the reading thread from `wait(until:)` when the check is cancelled or the sample is over, so
    /// it sleeps to its deadline in one wait instead of polling the flags.
    private let wake = DispatchSemaphore(value: 0)

    /// The check's rules (`CheckMachine`), shared by the reading thread and `progress()`.
    let machine: Mutex<CheckMachine>

    /// Creates a session timed by `clock`; the check's clock 0 is now, and `unixTimeAtStart` on the wall
    /// clock live latency is read against (this machine's now unless a test gives one).
    package init(
        source: String, settings: CheckSettings, clock: any CheckClock = MonotonicCheckClock(), unixTimeAtStart: Double? = nil
    ) {
        self.source = source
        self.settings = settings
        self.interrupter = Interrupter(timeout: .bounded(seconds: settings.timeout), input: source, policy: settings.requestPolicy)
        self.clock = clock
        self.started = clock.now()
        self.cmcdRequests = settings.cmcd.map(CMCDRequests.init)
        self.machine = Mutex(CheckMachine(policy: settings.policy, recordsTrace: settings.recordsTrace))
        self.playlists = PlaylistWatch()
        self.live = LiveEdgeWatch(unixAtStart: unixTimeAtStart ?? Date().timeIntervalSince1970)
    }

    /// Stops the check as soon as FFmpeg next polls (Ctrl-C). Safe from any thread.
    package func cancel() {
        cancelled.store(true, ordering: .releasing)
        interrupter.cancel()
        validation.cancel()
        wake.signal()
    }

    /// Seconds since the check began.
    func now() -> Double { clock.now() - started }

    // MARK: Running

    /// Runs the check to its verdict. Blocks until the input ended, the sample is complete, it failed, or
    /// `cancel()` was called; then the report covers what was measured until then, marked `interrupted`.
    package func run() -> CheckReport {
        var report = measure()
        report.interrupted = cancelled.load(ordering: .acquiring)
        return report
    }

    private func measure() -> CheckReport {
        // libavformat logs on the thread that called it: this thread's lines are this check's.
        let lines = self.lines
        FFmpegLog.observe { lines.record($0) }
        defer { FFmpegLog.stopObserving() }
        var report = CheckReport(
            source: source, verdict: .fail, reason: "", stallCount: 0, stallTime: 0, stalls: [], rebufferRatio: nil,
            loadedRanges: [], sampledDuration: 0, live: false, complete: false, played: 0, bufferedAhead: 0,
            playableStreams: [],
            variants: [],
            settings: CheckReport.Settings(
                startThreshold: settings.policy.startThreshold, resumeThreshold: settings.policy.resumeThreshold,
                maxBuffer: settings.policy.forwardTarget, player: settings.player?.rawValue,
                resumeCap: settings.policy.resumeCap, maxStartup: settings.maxStartup, timeout: settings.timeout,
                sampleLimit: settings.duration, rate: settings.rate?.description, variant: settings.variant.description,
                allVariantsSegments: settings.allVariants ? settings.allVariantsSegments : nil, thresholds: settings.thresholds),
            warnings: [])
        defer { machine.withLock { _ = $0.finish(.interrupted, now: now()) } }
        if let problem = InputCheck.problem(with: source) {
            report.sampledDuration = JSONOutput.seconds(now())
            return failing(report, problem)
        }
        let admission = admittedUnderPolicy()
        if let refusal = admission.refusal {
            report.sampledDuration = JSONOutput.seconds(now())
            return failing(report, refusal)
        }
        let dashChecked = admission.dashChecked
        let (playlists, live, clock, started) = (self.playlists, self.live, self.clock, self.started)
        let checkTime: @Sendable () -> Double = { clock.now() - started }
        // --record-trace: each request's latency, timed by the resource gate, on the check's clock.
        var timing: RequestTiming?
        if settings.recordsTrace {
            timing = RequestTiming(now: checkTime) { [self] begun, seconds in
                machine.withLock { $0.requestOpened(at: begun, latency: seconds) }
            }
        }
        // HLS: the input playlist read once, by bufprobe, and handed to FFmpeg (a live one windowed); live,
        // the start where players start (`--live-start`).
        var lowLatency: LowLatencyPlayback?
        // The input's first read is the open's, whoever makes it.
        let openBegan = now()
        let before = readBeforeOpening(lowLatency: &lowLatency, timing: timing)
        if let refusal = before.refusal {
            report.sampledDuration = JSONOutput.seconds(now())
            return failing(report, refusal)
        }
        // A manifest the request policy read and allowed is not live (DASHRequestCheck refuses live ones).
        if !dashChecked { prepareDASHLive() }
        let input: MediaInput
        do {
            var decorate: (@Sendable (String) -> RequestDecoration?)?
            if let cmcdRequests { decorate = { url in cmcdRequests.decoration(for: url) } }
            if let lowLatency { input = try lowLatency.openInput() } else { input = try MediaInput(
                url: InputKind.ffmpegURL(for: settings.requestURL(for: source)),
                options: settings.formatOptions.merging(before.options) { $1 }, interrupter: interrupter,
                playlistLoaded: { url, bytes in
                    let time = checkTime()
                    if let playlist = playlists.load(url: url, bytes: bytes, at: time) { live.playlistLoaded(playlist, url: url, at: time) }
                },
                requestTiming: timing, decorateRequest: decorate, dashChecked: dashChecked,
                resourceOpened: { url in live.segmentOpened(url: url) }, requestLog: dash.isActive ? dash.requestLog : nil,
                prefetched: admission.manifest ?? before.input) }
        } catch {
            return openFailed(error, report: report, dashChecked: dashChecked, lowLatency: lowLatency)
        }
        let openEnded = now()
        report.openTime = JSONOutput.seconds(openEnded - openBegan)
        report.format = lowLatency != nil ? "hls" : input.format.name
        var reading = CheckReading(input: input, settings: settings, source: source, lowLatency: lowLatency)
        reading.segmentsFailedWhileOpening = lines.failedSegments.count
        report.variants = reading.variants
        report.playableStreams = reading.playable
        report.live = reading.isLive
        report.duration = reading.declared.map { JSONOutput.seconds($0.duration) }
        report.settings.sampleLimit = reading.sampleLimit
        if case .index(let position) = settings.variant, !reading.variants.isEmpty,
            !reading.variants.contains(where: \.selected)
        {
            report.sampledDuration = JSONOutput.seconds(now())
            let count = reading.variants.count
            return failing(report, "\(source) has \(count) variants (0-\(count - 1)), so --variant \(position) names none of them.")
        }
        if reading.playable.isEmpty {
            report.sampledDuration = JSONOutput.seconds(now())
            if let limit = resourceLimitSentence(opening: true) { return failing(report, limit) }
            if let http = lines.httpErrors.last, let url = http.url {
                return failing(report, "\(source) could not be opened: \(url) answered HTTP \(http.status)\(http.text.isEmpty ? "" : " \(http.text)"), and nothing playable is left.")
            }
            return failing(report, "\(source) has no audio or video stream a player could play.")
        }
        input.discardAllStreams(except: reading.kept)
        playlists.openingFinished()
        if let limit = reading.sampleLimit {
            clock.schedule(at: started + limit) { [weak self] in
                guard let self else { return }
                self.samplingOver.store(true, ordering: .releasing)
                self.interrupter.cancel()
                self.wake.signal()
            }
        }
        let opened = CheckMachine.Opened(
            playableStreams: reading.playable, duration: reading.isLive ? .unbounded : .finite(input.format.duration ?? 0),
            mediaStart: input.format.startTime ?? 0, sampleLimit: reading.sampleLimit)
        let first = machine.withLock { $0.opened(opened, now: now()) }

        let end = receive(&reading, first)
        return conclude(report, reading: reading, end: end)
    }

    /// How receiving stopped.
    private enum End {
        case endOfFile
        case sampled
        case interrupted
        case failed(FFmpegError)
    }

    /// The loop: do what the machine says (read, wait, stop), pace to `--rate`, hand packets over.
    private func receive(_ reading: inout CheckReading, _ first: CheckMachine.Action) -> End {
        var action = first
        while true {
            // A cancel that came before receiving began (even before opening) is seen here.
            if cancelled.load(ordering: .acquiring) { return .interrupted }
            if samplingOver.load(ordering: .acquiring) { return .sampled }
            switch action {
            case .sampleOver:
                return .sampled
            case .wait(let until):
                guard wait(until: until) else { return interruption() }
                // The clock reached `until`; its reading counted from the start may round a hair below it,
                // which would only ask for the same wait again.
                let time = max(now(), until)
                action = machine.withLock { $0.advance(to: time) }
                observeForCMCD(reading)
                continue
            case .read:
                break
            }
            let packet: Packet?
            do {
                packet = try reading.input.readPacket()
            } catch {
                if samplingOver.load(ordering: .acquiring) { return .sampled }
                if cancelled.load(ordering: .acquiring) { return .interrupted }
                return .failed(error)
            }
            guard let packet else { return .endOfFile }
            // A read the interrupt cut short hands back a truncated packet: not media that arrived.
            if cancelled.load(ordering: .acquiring) { return .interrupted }
            guard reading.receives(packet) else { continue }
            if let rate = settings.rate, let release = reading.releaseTime(of: packet, rate: rate, now: now()) {
                guard wait(until: release) else { return interruption() }
            }
            if reading.firstPacketTime == nil { reading.firstPacketTime = now() }
            reading.count(packet)
            let time = now()
            reading.lastPacketTime = time
            let isLive = reading.isLive
            var playhead: Double?
            action = machine.withLock { machine in
                let next = machine.received(
                    packet.modelPacket, corrupt: packet.isCorrupt, bytesReceived: reading.bytesReceived,
                    bytesDelivered: reading.bytesDelivered, now: time)
                // A live input's latency reads the playhead under the same lock, once playback started.
                if isLive, let player = machine.session?.player, player.report.started { playhead = player.item.currentTime }
                return next
            }
            if isLive { noteLive(packet, playhead: playhead, at: time) }
            observeForCMCD(reading)
        }
    }

    /// What `--record-trace` recorded (`nil` without it); complete once `run()` has returned.
    package func recording() -> ThroughputRecording? { machine.withLock { $0.recording } }

    /// Sleeps until `time` (seconds since the start); `false` when interrupted or the sample ended first
    /// (`wake` ends the sleep at once).
    private func wait(until time: Double) -> Bool {
        while true {
            if cancelled.load(ordering: .acquiring) || samplingOver.load(ordering: .acquiring) { return false }
            // Compared on the clock's own readings: `clock.now() - started` may round below `time` when
            // the clock reads exactly `started + time`.
            let deadline = started + time
            if clock.now() >= deadline { return true }
            // The semaphore is signalled once per cancel or end of sample: a stale signal only ends one
            // sleep early, and the flags above decide.
            clock.sleep(until: deadline, alarm: wake)
        }
    }

    private func interruption() -> End { cancelled.load(ordering: .acquiring) ? .interrupted : .sampled }

    // MARK: Verdict

    private func conclude(_ base: CheckReport, reading: CheckReading, end: End) -> CheckReport {
        var report = base
        let endTime = now()
        // Every time the report and its sentences show counts from the playable start.
        // (`PlaybackSession` owns the shift; before the input opened there is nothing to shift.)
        let (origin, received, presented) = machine.withLock { machine in
            (machine.session?.origin ?? 0, machine.session?.received ?? TimeRanges(),
             machine.session?.presentedReceived ?? TimeRanges())
        }
        var failure: String?
        switch end {
        case .interrupted:
            failure = "\(source): interrupted after \(TextFormat.seconds(endTime))."
        case .failed(let error):
            failure = resourceLimitSentence(opening: false) ?? reading.lowLatency?.stalledSentence ?? CheckSentence.readFailure(
                error, source: source, lines: lines, timeout: settings.timeout, mediaReceived: presented.end)
        case .endOfFile:
            failure = reading.lowLatency?.failure.map { "\(source) stopped playing: \($0)" } ?? CheckSentence.earlyEnd(
                source: source, lines: lines, loaded: presented, declared: reading.declared.map { declared in
                    // From the playable start, as `presented`: the end moves, the duration does not.
                    let end = machine.withLock { $0.session?.presentationTime(declared.end) } ?? declared.end
                    return TruncationRule.Declared(end: end, duration: declared.duration) },
                readingSegments: reading.segmentsFailedWhileOpening,
                playlist: reading.input.format.container == .hls ? reading.variants.first(where: \.selected)?.index : nil)
        case .sampled:
            break
        }
        let ending: CheckMachine.End =
            if let failure { .failed(failure) } else if case .endOfFile = end { .endOfInput } else { .sampled }
        let session = machine.withLock { $0.finish(ending, now: endTime) }
        let qoe = session?.report ?? QoEReport()
        report.sampledDuration = JSONOutput.seconds(endTime)
        report.firstPacketTime = reading.firstPacketTime.map(JSONOutput.seconds)
        report.startupDelay = qoe.started ? JSONOutput.seconds(qoe.startupDelay) : nil
        report.stalls = qoe.stalls.map(\.roundedForJSON)
        report.stallCount = qoe.stallCount
        report.stallTime = JSONOutput.seconds(qoe.stallTime)
        report.rebufferRatio = qoe.rebufferRatio.map(JSONOutput.seconds)
        report.played = JSONOutput.seconds(qoe.played)
        report.bufferedAhead = JSONOutput.seconds(session?.player.item.bufferedAhead ?? 0)
        report.loadedRanges = JSONOutput.pairs(presented)
        report.skippedHoles = (session?.skippedGaps ?? []).map { hole in
            let shown = session?.presented(hole) ?? hole
            return [JSONOutput.seconds(shown.start), JSONOutput.seconds(shown.end)]
        }
        report.timeOrigin = JSONOutput.seconds(origin)
        report.bytesReceived = reading.bytesReceived
        report.complete = { if case .endOfFile = end { failure == nil } else { false } }()
        if let last = reading.lastPacketTime, last > 0 {
            report.throughputBps = (Double(reading.bytesReceived) * 8 / last).rounded()
        }
        // Receiving starts with the first packet: the time to get there is open_time and startup_delay. A
        // live stream on the clock arrives as fast as it is made: the start behind the edge downloads its
        // backlog at once, then the player's reloads pace it; kept up or not is the latency's drift.
        report.liveLatency = live.report()
        if report.liveLatency == nil, let first = reading.firstPacketTime, let last = reading.lastPacketTime, last > first {
            report.realtimeFactor = JSONOutput.seconds(received.totalDuration / (last - first))
        }
        if let declared = reading.declaredBitRate {
            report.declaredBitRate = Double(declared.value)
            report.declaredBitRateSource = declared.source
        }
        report.measuredBitRate = reading.averageBitRate?.rounded()
        report.peakBitRate = reading.peakBitRate?.rounded()
        report.warnings = skippedWarnings + lines.problems
        // Playlist health: remote live HLS only (local playlists are read without the gate that copies them).
        if reading.isLive, reading.input.format.container == .hls, InputKind(source).isNetwork {
            let health = playlists.report()
            report.playlistHealth = health
            report.warnings += health.events.map(\.message)
        }
        addLowLatency(reading.lowLatency, to: &report)
        // After the player's last word: validating takes wall time no player waits through.
        addVariantChecks(to: &report)
        addDASHLive(to: &report)
        if let failure { return failing(report, failure) }
        var measured = Verdict.Measurements(source: source, qoe: qoe)
        measured.sampled = { if case .sampled = end { true } else { false } }()
        measured.sampledDuration = report.sampledDuration
        measured.startThreshold = settings.policy.startThreshold
        measured.thresholds = settings.thresholds
        measured.latencyMax = report.liveLatency?.max
        measured.latencyDrift = report.liveLatency?.drift
        measured.declaredVariantBitRate = report.declaredBitRateSource == "variant" ? report.declaredBitRate : nil
        measured.peakBitRate = report.peakBitRate
        measured.realtimeFactor = report.realtimeFactor
        measured.received = presented.ranges
        measured.brokenPlaylists = lines.httpErrors.compactMap { http in
            guard let url = http.url, url != source,
                ContainerFormat(namedBy: url) == .hls
            else { return nil }
            return (url, http.status)
        }
        // Failed opens are FFmpeg's to judge (a segment of a variant not played does not count).
        measured.skippedResources = interrupter.skipped.filter { $0.kind != .failed }.map { ($0.url, $0.why) }
        measured.variantProblems = (report.variantChecks ?? []).map { ($0.index, $0.problemKinds) }
        measured.dashLive = report.dashLive
        measured.stalePlaylists = (report.playlistHealth?.events ?? []).filter { $0.kind == HLSPlaylistHealth.Kind.stale.rawValue }
            .map { ($0.playlist, $0.at) }
        measured.ignoredBlockingReloads = report.lowLatency.flatMap { $0.blockingReloadsIgnored > 0 ? ($0.playlist, $0.blockingReloadsIgnored, $0.blockingReloads) : nil }
        (report.verdict, report.reason) = Verdict.decide(measured)
        report.warnings += Verdict.unmeasured(measured)
        report.refusedRequests = CheckReport.RefusedRequests(interrupter.refusedRequests)
        return report
    }
}
