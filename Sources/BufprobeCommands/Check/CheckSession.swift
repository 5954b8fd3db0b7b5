import Foundation
package import MediaIO
import PlaybackModel
import Synchronization

/// One `check` of one input: opens it, receives it in real time on the calling thread, feeds every newly
/// playable range to the model's `Player` at the wall-clock time it arrived, and turns what the player
/// experienced into a `CheckReport`.
///
/// The player is the only stall rule: it is created at clock 0 (the moment the check began, so opening
/// counts as startup delay), wants playback from the start, and is advanced with the real monotonic clock.
/// Once the input has ended no data can change the outcome, so the rest of playback runs on the player's
/// own deadlines instead of being waited out.
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

    private let lines = FFmpegLines()
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private let shared: Mutex<Shared>
    private let samplingOver = Atomic<Bool>(false)
    private let cancelled = Atomic<Bool>(false)

    /// What the reading thread shares with `progress()`.
    private struct Shared {
        var player: Player?
        var duration: Double?
        var mediaStart = 0.0
        var received = TimeRanges()
        var bytes: Int64 = 0
        var mediaReceived = 0.0
        var firstPacketTime: Double?
        var lastPacketTime: Double?
        var finished = false
    }

    /// Creates a session; the clock starts now.
    package init(source: String, settings: CheckSettings) {
        self.source = source
        self.settings = settings
        self.interrupter = Interrupter(timeout: .milliseconds(Int64((settings.timeout * 1000).rounded())), input: source)
        self.started = clock.now
        self.shared = Mutex(Shared())
    }

    /// Stops the check as soon as FFmpeg next polls (Ctrl-C). Safe from any thread.
    package func cancel() {
        cancelled.store(true, ordering: .releasing)
        interrupter.cancel()
    }

    /// The state to draw now: the player advanced to the current time.
    package func progress() -> CheckProgress {
        let now = self.now()
        return shared.withLock { shared in
            guard var player = shared.player else {
                return CheckProgress(source: source, elapsed: now)
            }
            if !shared.finished {
                _ = player.advance(to: now)
                shared.player = player
            }
            let receiving = shared.lastPacketTime ?? now
            let span = receiving - (shared.firstPacketTime ?? receiving)
            return CheckProgress(
                source: source, elapsed: now, state: player.state, currentTime: player.item.currentTime,
                bufferedAhead: player.item.bufferedAhead, stallPositions: player.report.stalls.map(\.position),
                received: shared.received, mediaStart: shared.mediaStart, duration: shared.duration,
                throughput: receiving > 0 ? Double(shared.bytes) * 8 / receiving : nil,
                realtimeFactor: span > 0 ? shared.mediaReceived / span : nil)
        }
    }

    /// Seconds since the check began.
    private func now() -> Double { (clock.now - started).seconds }

    // MARK: Running

    /// Runs the check to its verdict. Blocks until the input ended, the sample is complete, it failed, or
    /// `cancel()` was called.
    package func run() -> CheckReport {
        FFmpegLogRouter.register(lines)
        defer { FFmpegLogRouter.unregister() }
        var report = CheckReport(
            source: source, verdict: .fail, reason: "", stallCount: 0, stallTime: 0, stalls: [], rebufferRatio: 0,
            loadedRanges: [], sampledDuration: 0, live: false, complete: false, played: 0, bufferedAhead: 0,
            playableStreams: [],
            variants: [],
            settings: CheckReport.Settings(
                startThreshold: settings.policy.startThreshold, resumeThreshold: settings.policy.resumeThreshold,
                maxBuffer: settings.policy.forwardTarget, maxStartup: settings.maxStartup, timeout: settings.timeout,
                sampleLimit: settings.duration, rate: settings.rate?.description, variant: settings.variant.description),
            warnings: [])
        defer { shared.withLock { $0.finished = true } }
        if let problem = InputCheck.problem(with: source) {
            report.sampledDuration = JSONOutput.seconds(now())
            return failing(report, problem)
        }
        let input: MediaInput
        do {
            input = try MediaInput(url: InputKind.ffmpegURL(for: source), options: settings.formatOptions, interrupter: interrupter)
        } catch {
            report.sampledDuration = JSONOutput.seconds(now())
            if cancelled.load(ordering: .acquiring) { return failing(report, "\(source): interrupted while opening.") }
            if let limit = resourceLimitSentence(opening: true) { return failing(report, limit) }
            return failing(report, CheckSentence.openFailure(error, source: source, lines: lines, timeout: settings.timeout))
        }
        report.openTime = JSONOutput.seconds(input.openDuration.seconds)
        report.format = input.format.name
        var reading = CheckReading(input: input, settings: settings, source: source)
        reading.segmentsFailedWhileOpening = lines.failedSegments.count
        report.variants = reading.variants
        report.playableStreams = reading.playable
        report.live = reading.isLive
        report.duration = input.format.duration.map(JSONOutput.seconds)
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
        if let limit = reading.sampleLimit {
            DispatchQueue.global().asyncAfter(deadline: .now() + max(0, limit - now())) { [weak self] in
                guard let self else { return }
                self.samplingOver.store(true, ordering: .releasing)
                self.interrupter.cancel()
            }
        }
        var player = Player(
            duration: reading.isLive ? .unbounded : .finite(input.format.duration ?? 0), policy: settings.policy,
            mediaStart: input.format.startTime ?? 0, now: 0)
        // The check reads the returned actions and the report, never the observation outbox.
        player.recordsEvents = false
        shared.withLock { shared in
            shared.player = player
            shared.duration = input.format.duration
            shared.mediaStart = input.format.startTime ?? 0
            _ = shared.player?.advance(to: now())
        }

        let end = receive(&reading)
        return conclude(report, reading: reading, end: end)
    }

    /// How receiving stopped.
    private enum End {
        case endOfFile
        case sampled
        case interrupted
        case failed(FFmpegError)
    }

    /// The loop: read, pace, hand over, honour the forward-buffer target.
    private func receive(_ reading: inout CheckReading) -> End {
        while true {
            if samplingOver.load(ordering: .acquiring) { return .sampled }
            guard waitWhileLoadingIsStopped() else { return interruption() }
            let packet: Packet?
            do {
                packet = try reading.input.readPacket()
            } catch {
                if samplingOver.load(ordering: .acquiring) { return .sampled }
                if cancelled.load(ordering: .acquiring) { return .interrupted }
                return .failed(error)
            }
            guard let packet else { return .endOfFile }
            guard reading.receives(packet) else { continue }
            if let rate = settings.rate, let release = reading.releaseTime(of: packet, rate: rate, now: now()) {
                guard wait(until: release) else { return interruption() }
            }
            if reading.firstPacketTime == nil { reading.firstPacketTime = now() }
            let fresh = reading.add(packet)
            let time = now()
            reading.lastPacketTime = time
            shared.withLock { shared in
                shared.bytes = reading.bytesReceived
                shared.mediaReceived = reading.mediaReceived
                shared.lastPacketTime = time
                if shared.firstPacketTime == nil { shared.firstPacketTime = reading.firstPacketTime }
                guard var player = shared.player else { return }
                if !fresh.isEmpty {
                    shared.received = reading.loaded
                    _ = player.loaded(fresh, now: time)
                    Self.moveStartToData(&player, now: time)
                } else {
                    _ = player.advance(to: time)
                }
                shared.player = player
            }
        }
    }

    /// Before playback starts, a playhead with no data under it (the container's start time lies before
    /// the first playable frame by more than the model's snap tolerance, or a live stream starts late)
    /// moves to the first data, as players start at the first frame they have.
    private static func moveStartToData(_ player: inout Player, now: Double) {
        guard case .loading = player.state else { return }
        let item = player.item
        guard !item.loadedTimeRanges.contains(item.currentTime) else { return }
        let target = item.loadedTimeRanges.firstRange(startingAtOrAfter: item.currentTime)?.start
            ?? item.loadedTimeRanges.start
        if let target { _ = player.seek(to: target, now: now) }
    }

    /// Sleeps while the player has stopped loading (the forward-buffer target is reached), advancing it;
    /// `false` when interrupted or the sample ended.
    private func waitWhileLoadingIsStopped() -> Bool {
        while true {
            let waiting: Bool = shared.withLock { shared in
                guard var player = shared.player else { return false }
                _ = player.advance(to: now())
                shared.player = player
                return !player.isLoading && !player.state.isTerminal && !player.item.isLoadedThroughEnd
            }
            guard waiting else { return true }
            guard wait(until: now() + 0.05) else { return false }
        }
    }

    /// Sleeps until `time` (seconds since the start) in short steps; `false` when interrupted or the
    /// sample ended first.
    private func wait(until time: Double) -> Bool {
        while true {
            if cancelled.load(ordering: .acquiring) || samplingOver.load(ordering: .acquiring) { return false }
            let left = time - now()
            if left <= 0 { return true }
            Thread.sleep(forTimeInterval: min(left, 0.05))
        }
    }

    private func interruption() -> End { cancelled.load(ordering: .acquiring) ? .interrupted : .sampled }

    // MARK: Verdict

    private func conclude(_ base: CheckReport, reading: CheckReading, end: End) -> CheckReport {
        var report = base
        let endTime = now()
        var failure: String?
        switch end {
        case .interrupted:
            failure = "\(source): interrupted after \(TextFormat.seconds(endTime))."
        case .failed(let error):
            failure = resourceLimitSentence(opening: false) ?? CheckSentence.readFailure(
                error, source: source, lines: lines, timeout: settings.timeout, mediaReceived: reading.loaded.end)
        case .endOfFile:
            failure = CheckSentence.earlyEnd(
                source: source, lines: lines, loaded: reading.loaded, declaredEnd: reading.declaredEnd,
                readingSegments: reading.segmentsFailedWhileOpening,
                playlist: reading.input.format.name == "hls" ? reading.variants.first(where: \.selected)?.index : nil)
        case .sampled:
            break
        }
        let player: Player = shared.withLock { shared in
            guard var player = shared.player else { return Player(duration: .unknown, now: endTime) }
            if let failure {
                _ = player.failed(failure, now: endTime)
            } else if case .endOfFile = end {
                // Nothing can arrive any more: let the player play out what it has on its own deadlines.
                _ = player.endOfStream(now: endTime)
                var steps = 0
                while let deadline = player.nextDeadline, steps < 100_000 {
                    _ = player.advance(to: deadline)
                    steps += 1
                }
            } else {
                _ = player.advance(to: endTime)
            }
            shared.player = player
            shared.finished = true
            return player
        }
        let qoe = player.report
        report.sampledDuration = JSONOutput.seconds(endTime)
        report.firstPacketTime = reading.firstPacketTime.map(JSONOutput.seconds)
        report.startupDelay = qoe.started ? JSONOutput.seconds(qoe.startupDelay) : nil
        report.stalls = qoe.stalls.map(\.roundedForJSON)
        report.stallCount = qoe.stallCount
        report.stallTime = JSONOutput.seconds(qoe.stallTime)
        report.rebufferRatio = JSONOutput.seconds(qoe.rebufferRatio)
        report.played = JSONOutput.seconds(qoe.played)
        report.bufferedAhead = JSONOutput.seconds(player.item.bufferedAhead)
        report.loadedRanges = ProbeReader.pairs(reading.loaded)
        report.bytesReceived = reading.bytesReceived
        report.complete = { if case .endOfFile = end { failure == nil } else { false } }()
        if let last = reading.lastPacketTime, last > 0 {
            report.throughputBps = (Double(reading.bytesReceived) * 8 / last).rounded()
        }
        // Receiving starts with the first packet: the time to get there is open_time and startup_delay.
        if let first = reading.firstPacketTime, let last = reading.lastPacketTime, last > first {
            report.realtimeFactor = JSONOutput.seconds(reading.mediaReceived / (last - first))
        }
        if let declared = reading.declaredBitRate {
            report.declaredBitRate = Double(declared.value)
            report.declaredBitRateSource = declared.source
        }
        report.measuredBitRate = reading.averageBitRate?.rounded()
        report.peakBitRate = reading.peakBitRate?.rounded()
        report.warnings = skippedWarnings + lines.problems
        if let failure { return failing(report, failure) }
        (report.verdict, report.reason) = verdict(report, started: qoe.started, sampled: { if case .sampled = end { true } else { false } }())
        return report
    }

    private func failing(_ report: CheckReport, _ reason: String) -> CheckReport {
        var report = report
        report.verdict = .fail
        report.reason = reason
        if report.warnings.isEmpty { report.warnings = skippedWarnings + lines.problems }
        return report
    }

    /// The sentence for a stop that was not a timeout or Ctrl-C (a request loop, an oversized playlist).
    private func resourceLimitSentence(opening: Bool) -> String? {
        guard let reason = interrupter.reason else {
            return opening ? interrupter.skipped.first(where: { $0.kind != .failed })?.openFailure(for: source) : nil
        }
        guard reason != .timeout, reason != .cancelled else { return nil }
        return reason.sentence(for: source, timeout: settings.timeout, opening: opening)
    }

    /// Resources the input led to that were refused or skipped, as warnings.
    private var skippedWarnings: [String] {
        interrupter.skipped.filter { $0.kind != .failed }.map { $0.sentence(for: source) }
    }

    /// pass / degraded from the measurements (failures are decided before).
    private func verdict(_ report: CheckReport, started: Bool, sampled: Bool) -> (CheckVerdict, String) {
        guard started, let startup = report.startupDelay else {
            return (.degraded, "\(source) did not start: \(TextFormat.seconds(settings.policy.startThreshold)) of media never arrived in the \(TextFormat.seconds(report.sampledDuration)) sampled.")
        }
        var problems: [String] = []
        if report.stallCount > 0, let first = report.stalls.first {
            let times = report.stallCount == 1 ? "once" : "\(report.stallCount) times"
            problems.append(
                "stalled \(times) for \(TextFormat.seconds(report.stallTime)) in total (first at media time \(TextFormat.seconds(first.position)))")
        }
        if startup > settings.maxStartup {
            problems.append(
                "took \(TextFormat.seconds(startup)) to start, more than the \(TextFormat.seconds(settings.maxStartup)) allowed (--max-startup)")
        }
        if report.declaredBitRateSource == "variant", let declared = report.declaredBitRate, let peak = report.peakBitRate,
            peak > declared * 1.1
        {
            problems.append(
                "peaked at \(TextFormat.bitRate(peak)), more than 10% above its declared BANDWIDTH of \(TextFormat.bitRate(declared))")
        }
        if let factor = report.realtimeFactor, factor < 1 {
            problems.append("arrived slower than real time (\(String(format: "%.2f", factor))x)")
        }
        // A hole in the media the stream delivered: the model's player waits there while more may come,
        // and jumps it once the stream has ended, so a hole found complete is not a stall; viewers still
        // see the picture freeze or jump.
        for (before, after) in zip(report.loadedRanges, report.loadedRanges.dropFirst()) {
            problems.append(
                "has a \(TextFormat.seconds(after[0] - before[1])) hole in its media at \(TextFormat.seconds(before[1]))")
        }
        // A variant playlist that failed: FFmpeg drops that variant and plays the others, as a player
        // would, but the playlist is broken for every viewer sent to it.
        var brokenPlaylists: [String] = []
        for http in lines.httpErrors {
            guard let url = http.url, url != source, !brokenPlaylists.contains(url),
                url.lowercased().split(separator: "?").first?.hasSuffix(".m3u8") == true
            else { continue }
            brokenPlaylists.append(url)
            problems.append("lists a variant playlist it cannot serve (\(url) answered HTTP \(http.status))")
        }
        // A resource refused or skipped (a variant that sent nothing): FFmpeg played the others.
        // Failed opens are FFmpeg's to judge (a segment of a variant not played does not count).
        for skipped in interrupter.skipped where skipped.kind != .failed {
            problems.append("leads to \(skipped.url), which \(skipped.why)")
        }
        if !problems.isEmpty {
            return (.degraded, "\(source) " + Self.join(problems) + ".")
        }
        let speed = report.realtimeFactor.map { String(format: " at %.1fx real time", $0) } ?? ""
        let span = sampled ? " during the \(TextFormat.seconds(report.sampledDuration)) sampled" : ""
        return (.pass, "\(source) started in \(TextFormat.seconds(startup)) and played without stalling\(span), received\(speed).")
    }

    private static func join(_ parts: [String]) -> String {
        guard parts.count > 1 else { return parts.first ?? "" }
        return parts.dropLast().joined(separator: ", ") + " and " + parts.last!
    }
}
