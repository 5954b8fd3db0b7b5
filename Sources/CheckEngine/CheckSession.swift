import Foundation
package import MediaIO
import PlaybackModel
import Synchronization

/// One `check` of one input, the driver of its `CheckMachine`: opens the input, receives it in real time
/// on the calling thread, and hands the machine every observation as a `CheckEvent` with its time on the
/// session's `clock` (the monotonic wall clock unless one is injected; every reading of time and every wait
/// goes through it). It does I/O and reads the clock only: every figure, sentence and the verdict are the
/// machine's, so the events it handled (`events()`, `--record-events`) replay to the same report
/// (`CheckReplay`).
///
/// Observations made on other threads (the LL-HLS client's) reach the machine through the same lock, in
/// the order it takes them. `run()` blocks (libavformat calls block); run it on a thread of its own.
/// `cancel()` and `progress()` may be called from any thread.
package final class CheckSession: Sendable {
    /// The URL or path.
    package let source: String
    /// The options in force.
    package let settings: CheckSettings
    /// Bounds every libavformat wait; `cancel()` trips it.
    package let interrupter: Interrupter
    /// Cancelled with the check (`cancel()`), not by the end of a live sample: `--all-variants` runs after.
    let validation = Interrupter(timeout: nil)
    /// FFmpeg's requests for a live DASH input (`prepareDASHLive`).
    let requestLog = RequestLog()
    /// The time source of every reading and wait, and its reading when the check began: clock 0.
    let clock: any CheckClock
    let started: Double
    private let samplingOver = Atomic<Bool>(false)
    let cancelled = Atomic<Bool>(false)
    /// Wakes the reading thread from `wait(until:)` when the check is cancelled or the sample is over.
    private let wake = DispatchSemaphore(value: 0)
    /// The check's rules, fed by the reading thread, the LL-HLS client and FFmpeg's log.
    let machine: Mutex<CheckMachine>

    /// Creates a session timed by `clock`; the check's clock 0 is now, and `unixTimeAtStart` on the wall
    /// clock live latency is read against (this machine's now unless a test gives one). `recordsEvents`
    /// keeps every event for `events()`.
    package init(
        source: String, settings: CheckSettings, clock: any CheckClock = MonotonicCheckClock(), unixTimeAtStart: Double? = nil,
        recordsEvents: Bool = false
    ) {
        self.source = source
        self.settings = settings
        self.interrupter = Interrupter(timeout: .bounded(seconds: settings.timeout), input: source, policy: settings.requestPolicy)
        self.clock = clock
        self.started = clock.now()
        var machine = CheckMachine(source: source, settings: settings, recordsEvents: recordsEvents)
        machine.handle(.began(unixTime: unixTimeAtStart ?? Date().timeIntervalSince1970), at: 0)
        self.machine = Mutex(machine)
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

    /// Hands `event`, observed at `at` (now by default), to the machine; returns its answer.
    @discardableResult
    func deliver(_ event: CheckEvent, at: Double? = nil) -> CheckMachine.Action {
        let time = at ?? now()
        return machine.withLock { $0.handle(event, at: time) }
    }

    /// The state to draw now.
    package func progress() -> CheckProgress {
        let now = self.now()
        return machine.withLock { $0.progress(at: now) }
    }

    /// What `--record-trace` recorded (`nil` without it); complete once `run()` has returned.
    package func recording() -> ThroughputRecording? { machine.withLock { $0.recording } }

    /// The events the machine handled (`nil` unless the session records them); complete once `run()` has
    /// returned.
    package func events() -> [CheckEvent.Timed]? { machine.withLock { $0.events } }

    // MARK: Running

    /// Runs the check to its report. Blocks until the input ended, the sample is complete, it failed, or
    /// `cancel()` was called; then the report covers what was measured until then, marked `interrupted`.
    package func run() -> CheckReport {
        // libavformat logs on the thread that called it: this thread's lines are this check's.
        FFmpegLog.observe { [weak self] line in
            guard line.isProblem || line.event != nil else { return }
            self?.deliver(.ffmpeg(level: line.level.rawValue, text: line.text))
        }
        defer { FFmpegLog.stopObserving() }
        let dashLive = measure()
        // After the player's last word: validating takes wall time no player waits through.
        validateVariants()
        if dashLive {
            requestLog.end()
            deliverRequests()
        }
        deliver(.closed(refused: CheckReport.RefusedRequests(interrupter.refusedRequests), interrupted: cancelled.load(ordering: .acquiring)))
        return machine.withLock { $0.report }
    }

    /// Opens and receives the input; returns whether FFmpeg's requests of a live DASH input are logged.
    private func measure() -> Bool {
        if let problem = InputCheck.problem(with: source) { return fail(problem) }
        let admission = admittedUnderPolicy()
        if let refusal = admission.refusal { return fail(refusal) }
        let (clock, started) = (self.clock, self.started)
        let checkTime: @Sendable () -> Double = { clock.now() - started }
        // --record-trace: each request's latency, timed by the resource gate, on the check's clock.
        let timing = settings.recordsTrace ? RequestTiming(now: checkTime) { [weak self] begun, seconds in
            self?.deliver(.requestOpened(latency: seconds), at: begun)
        } : nil
        var lowLatency: LowLatencyPlayback?
        // The input's first read is the open's, whoever makes it.
        let openBegan = now()
        let before = readBeforeOpening(lowLatency: &lowLatency, timing: timing)
        if let refusal = before.refusal { return fail(refusal) }
        // A manifest the request policy read and allowed is not live (DASHRequestCheck refuses live ones).
        let dashLive = !admission.dashChecked && prepareDASHLive()
        let input: MediaInput
        do {
            let decorate: (@Sendable (String) -> RequestDecoration?)? = settings.cmcd == nil ? nil : { @Sendable [weak self] url in
                self?.machine.withLock { $0.cmcdDecoration(for: url) }
            }
            if let lowLatency { input = try lowLatency.openInput() } else { input = try MediaInput(
                url: InputKind.ffmpegURL(for: settings.requestURL(for: source)),
                options: settings.formatOptions.merging(before.options) { $1 }, interrupter: interrupter,
                playlistLoaded: { [weak self] url, bytes in self?.deliver(.playlistLoaded(url: url, text: String(decoding: bytes, as: UTF8.self))) },
                requestTiming: timing, decorateRequest: decorate, dashChecked: admission.dashChecked,
                resourceOpened: { [weak self] url in self?.deliver(.resourceOpened(url: url)) },
                requestLog: dashLive ? requestLog : nil, prefetched: admission.manifest ?? before.input) }
        } catch {
            openFailed(error, dashChecked: admission.dashChecked)
            return dashLive
        }
        var reading = CheckReading(input: input, settings: settings, source: source, playsParts: lowLatency != nil)
        let first = deliver(.opened(reading.opened(openBegan: openBegan, limit: resourceLimitSentence(opening: true))))
        if machine.withLock({ $0.failedBeforeReceiving }) { return dashLive }
        input.discardAllStreams(except: reading.kept)
        if let limit = reading.sampleLimit {
            clock.schedule(at: started + limit) { [weak self] in
                guard let self else { return }
                self.samplingOver.store(true, ordering: .releasing)
                self.interrupter.cancel()
                self.wake.signal()
            }
        }
        let end = receive(&reading, first, lowLatency: lowLatency, dashLive: dashLive)
        deliver(.ended(end, requests: requests(opening: false, bytes: reading.bytesReceived, lowLatency: lowLatency)))
        return dashLive
    }

    /// The loop: do what the machine says (read, wait, stop), pace to `--rate`, hand packets over.
    private func receive(
        _ reading: inout CheckReading, _ first: CheckMachine.Action, lowLatency: LowLatencyPlayback?, dashLive: Bool
    ) -> CheckEvent.How {
        var action = first
        var received = false
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
                action = deliver(.advanced, at: max(now(), until))
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
            reading.count(packet)
            // The first packet places a live DASH input's start: FFmpeg's requests until then are needed.
            if dashLive, !received { deliverRequests() }
            received = true
            action = deliver(.packet(CheckEvent.PacketRead(
                stream: packet.stream, pts: packet.pts, dts: packet.dts, duration: packet.duration, size: packet.size,
                position: packet.position, keyframe: packet.isKeyframe, corrupt: packet.isCorrupt,
                video: lowLatency == nil ? nil : reading.input.bestVideoStream, bytesReceived: reading.bytesReceived,
                bytesDelivered: reading.bytesDelivered)))
        }
    }

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

    private func interruption() -> CheckEvent.How { cancelled.load(ordering: .acquiring) ? .interrupted : .sampled }
}
