import BufprobeOutput
import MediaIO
import PlaybackModel
import InputReading

// The report, built from the machine's rules as the end events arrive: `.ended` (what the player
// experienced), `.variantsValidated`, `.closed` (a live DASH input's requests, the verdict).
extension CheckMachine {
    /// The report before anything was measured: the source and the settings in force.
    static func base(source: String, settings: CheckSettings) -> CheckReport {
        CheckReport(
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
    }

    /// Whether the check failed before receiving began (the driver then goes on to close it).
    package var failedBeforeReceiving: Bool { failure != nil && how == nil }

    /// The check fails with `sentence` before receiving: warnings from what the gate skipped and FFmpeg
    /// logged.
    mutating func fail(_ sentence: String, requests: CheckEvent.Requests) {
        failure = sentence
        if report.warnings.isEmpty { report.warnings = requests.warnings + lines.problems }
        skipped = requests
    }

    /// The check fails with `sentence` when it opened (the gate's findings are already known).
    mutating func failBeforeReceiving(_ sentence: String) {
        fail(sentence, requests: skipped ?? CheckEvent.Requests())
    }

    /// Opening failed with FFmpeg's `error`: over a resource limit, the LL-HLS client's own failure, else
    /// FFmpeg's error as a sentence.
    mutating func openFailed(_ error: FFmpegError, requests: CheckEvent.Requests, at: Double) {
        report.sampledDuration = JSONOutput.seconds(at)
        if let limit = requests.limit { return fail(limit, requests: requests) }
        if let parts {
            addLowLatency()
            if let failure = parts.failure { return fail("\(source) could not be opened: \(failure)", requests: requests) }
        }
        fail(CheckSentence.openFailure(error, source: source, lines: lines, timeout: settings.timeout), requests: requests)
    }

    /// Receiving stopped at `at` for `how`: the player ends as the rules say and the report takes what it
    /// experienced.
    mutating func conclude(_ how: CheckEvent.How, requests: CheckEvent.Requests, at endTime: Double) {
        self.how = how
        skipped = requests
        // Every time the report and its sentences show counts from the playable start.
        // (`PlaybackSession` owns the shift; before the input opened there is nothing to shift.)
        let origin = session?.origin ?? 0
        let received = session?.received ?? TimeRanges()
        let presented = session?.presentedReceived ?? TimeRanges()
        switch how {
        case .interrupted:
            failure = "\(source): interrupted after \(TextFormat.seconds(endTime))."
        case .failed(let error):
            failure = requests.limit ?? requests.partStalled ?? CheckSentence.readFailure(
                error, source: source, lines: lines, timeout: settings.timeout, mediaReceived: presented.end)
        case .endOfFile:
            failure = parts?.failure.map { "\(source) stopped playing: \($0)" } ?? CheckSentence.earlyEnd(
                source: source, lines: lines, loaded: presented, declared: declared.map { declared in
                    // From the playable start, as `presented`: the end moves, the duration does not.
                    let end = session?.presentationTime(declared.end) ?? declared.end
                    return TruncationRule.Declared(end: end, duration: declared.duration) },
                readingSegments: segmentsFailedWhileOpening,
                playlist: input?.isHLS == true ? input?.variants.first(where: \.selected)?.index : nil)
                ?? input?.tail
        case .sampled:
            break
        }
        let ending: End = if let failure { .failed(failure) } else if case .endOfFile = how { .endOfInput } else { .sampled }
        finish(ending, now: endTime)
        let qoe = session?.report ?? QoEReport()
        report.sampledDuration = JSONOutput.seconds(endTime)
        report.firstPacketTime = counters.firstPacketTime.map(JSONOutput.seconds)
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
        report.bytesReceived = requests.bytesReceived
        report.complete = { if case .endOfFile = how { failure == nil } else { false } }()
        if let last = counters.lastPacketTime, last > 0 {
            report.throughputBps = (Double(requests.bytesReceived) * 8 / last).rounded()
        }
        // Receiving starts with the first packet: the time to get there is open_time and startup_delay. A
        // live stream on the clock arrives as fast as it is made: the start behind the edge downloads its
        // backlog at once, then the player's reloads pace it; kept up or not is the latency's drift.
        report.liveLatency = live.report()
        if report.liveLatency == nil, let first = counters.firstPacketTime, let last = counters.lastPacketTime, last > first {
            report.realtimeFactor = JSONOutput.seconds(received.totalDuration / (last - first))
        }
        if let declared = input?.declaredBitRate {
            report.declaredBitRate = Double(declared)
            report.declaredBitRateSource = input?.declaredBitRateSource
        }
        report.measuredBitRate = tally.averageBitRate?.rounded()
        report.peakBitRate = tally.peakBitRate?.rounded()
        report.warnings = requests.warnings + lines.problems
        // Playlist health: remote live HLS only (local playlists are read without the gate that copies them).
        if input?.isLive == true, input?.isHLS == true, InputKind(source).isNetwork {
            let health = playlists.report()
            report.playlistHealth = health
            report.warnings += health.events.map(\.message)
        }
        addLowLatency()
    }

    /// The check is over at `at`: a live DASH input's requests judged, then the verdict (`Verdict.decide`,
    /// or the failure's sentence).
    mutating func close(refused: CheckReport.RefusedRequests?, interrupted: Bool, at: Double) {
        addDASHLive(end: at)
        if let failure {
            report.verdict = .fail
            report.reason = failure
            if report.warnings.isEmpty { report.warnings = (skipped?.warnings ?? []) + lines.problems }
        } else {
            decide()
        }
        report.refusedRequests = refused
        report.interrupted = interrupted
        if !isFinished { finish(.interrupted, now: at) }
        closed = true
    }

    /// The verdict from what was measured.
    private mutating func decide() {
        let qoe = session?.report ?? QoEReport()
        var measured = Verdict.Measurements(source: source, qoe: qoe)
        measured.sampled = how == .sampled
        measured.sampledDuration = report.sampledDuration
        measured.startThreshold = settings.policy.startThreshold
        measured.thresholds = settings.thresholds
        measured.latencyMax = report.liveLatency?.max
        measured.latencyDrift = report.liveLatency?.drift
        measured.declaredVariantBitRate = report.declaredBitRateSource == "variant" ? report.declaredBitRate : nil
        measured.peakBitRate = report.peakBitRate
        measured.realtimeFactor = report.realtimeFactor
        measured.received = session?.presentedReceived.ranges ?? []
        measured.brokenPlaylists = lines.httpErrors.compactMap { http in
            guard let url = http.url, url != source,
                ContainerFormat(namedBy: url) == .hls
            else { return nil }
            return (url, http.status)
        }
        // Failed opens are FFmpeg's to judge (a segment of a variant not played does not count).
        measured.skippedResources = (skipped?.skipped ?? []).map { ($0.url, $0.why) }
        measured.variantProblems = (report.variantChecks ?? []).map { ($0.index, $0.problemKinds) }
        measured.dashLive = report.dashLive
        measured.stalePlaylists = (report.playlistHealth?.events ?? []).filter { $0.kind == HLSPlaylistHealth.Kind.stale.rawValue }
            .map { ($0.playlist, $0.at) }
        measured.ignoredBlockingReloads = report.lowLatency.flatMap { $0.blockingReloadsIgnored > 0 ? ($0.playlist, $0.blockingReloadsIgnored, $0.blockingReloads) : nil }
        (report.verdict, report.reason) = Verdict.decide(measured)
        report.warnings += Verdict.unmeasured(measured)
    }
}
