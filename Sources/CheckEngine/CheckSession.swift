import Foundation
package import MediaIO
import PlaybackModel
import Synchronization

/// One `check` of one input, the driver of its `CheckMachine`: opens the input (`OpeningReads`), receives
/// it in real time on the calling thread, and hands the machine every observation as a `CheckEvent` timed
/// on `clock` (through which every reading of time and every wait goes). It does I/O and reads the clock
/// only: every figure, sentence and the verdict are the machine's, so the events it handled (`events()`,
/// `--record-events`) replay to the same report (`CheckReplay`). Observations made on other threads
/// (FFmpeg's log, the resource gate's hooks, the LL-HLS client) reach the machine through the same lock.
/// `run()` blocks (libavformat calls block); `cancel()` and `progress()` may be called from any thread.
package final class CheckSession: Sendable {
    /// The URL or path, and the options in force.
    package let source: String, settings: CheckSettings
    /// Bounds every libavformat wait; `cancel()` trips it.
    package let interrupter: Interrupter
    /// Cancelled with the check (`cancel()`), not by the end of a live sample: `--all-variants` runs after;
    /// and FFmpeg's requests for a live DASH input.
    private let validation: Interrupter, requestLog = RequestLog()
    /// The time source of every reading and wait, its reading when the check began (clock 0), and the
    /// wall clock then (Unix seconds).
    private let clock: any CheckClock, started: Double, unixAtStart: Double
    private let samplingOver = Atomic<Bool>(false), cancelled = Atomic<Bool>(false)
    /// The check's rules, fed by the reading thread, the LL-HLS client and FFmpeg's log.
    private let machine: Mutex<CheckMachine>

    /// Creates a session timed by `clock`; the check's clock 0 is now, and `unixTimeAtStart` on the wall
    /// clock live latency is read against (the clock's `unixTime()` unless a test gives one). `recordsEvents`
    /// keeps every event for `events()`.
    package init(
        source: String, settings: CheckSettings, clock: any CheckClock = MonotonicIOClock(), unixTimeAtStart: Double? = nil,
        recordsEvents: Bool = false
    ) {
        (self.source, self.settings, self.clock) = (source, settings, clock)
        self.interrupter = Interrupter(
            timeout: .bounded(seconds: settings.timeout), input: source, policy: settings.requestPolicy, clock: clock)
        validation = Interrupter(timeout: nil, clock: clock)
        (started, unixAtStart) = (clock.now(), unixTimeAtStart ?? clock.unixTime())
        var machine = CheckMachine(source: source, settings: settings, recordsEvents: recordsEvents)
        machine.handle(.began(unixTime: unixAtStart), at: 0)
        self.machine = Mutex(machine)
    }

    /// Stops the check as soon as FFmpeg next polls (Ctrl-C), and ends every wait on the clock at once (the
    /// interrupters' alarms: the reading thread's, the LL-HLS client's, a paced request's). Safe from any thread.
    package func cancel() {
        cancelled.store(true, ordering: .releasing)
        interrupter.cancel()
        validation.cancel()
    }

    private func now() -> Double { clock.now() - started }

    /// Hands `event`, observed at `at` (now by default), to the machine; returns its answer.
    @discardableResult
    private func deliver(_ event: CheckEvent, at: Double? = nil) -> CheckMachine.Action {
        let time = at ?? now()
        return machine.withLock { $0.handle(event, at: time) }
    }

    /// The state to draw now.
    package func progress() -> CheckProgress { observeProgress(every: .infinity) { _ in } }

    /// Hands `observer` the state to draw now (and returns it), then each time the machine says the next
    /// is due (every `interval` seconds on the check's clock, on a thread of the clock's) until the check
    /// is over; with an infinite `interval`, only now.
    @discardableResult
    package func observeProgress(every interval: Double, _ observer: @escaping @Sendable (CheckProgress) -> Void) -> CheckProgress {
        let now = self.now()
        let (progress, next) = machine.withLock { $0.progressDue(at: now, every: interval) }
        observer(progress)
        guard let next, next.isFinite else { return progress }
        clock.schedule(at: started + next) { [weak self] in self?.observeProgress(every: interval, observer) }
        return progress
    }

    /// What `--record-trace` recorded (`nil` without it); complete once `run()` has returned.
    package func recording() -> ThroughputRecording? { machine.withLock { $0.recording } }

    /// The events the machine handled (`nil` unless the session records them), once `run()` has returned.
    package func events() -> [CheckEvent.Timed]? { machine.withLock { $0.events } }

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
        let (format, validated) = machine.withLock { ($0.report.format, $0.report.variantChecks != nil) }
        if settings.allVariants, !validated, !isCancelled {
            deliver(AllVariants.validate(
                source: source, format: format, settings: settings, root: validation, pacer: interrupter, clock: clock,
                started: started, unixAtStart: unixAtStart))
        }
        if dashLive {
            requestLog.end()
            deliverRequests()
        }
        deliver(.closed(refused: CheckReport.RefusedRequests(interrupter.refusedRequests), interrupted: isCancelled))
        return machine.withLock { $0.report }
    }

    /// Opens and receives the input; returns whether FFmpeg's requests of a live DASH input are logged.
    private func measure() -> Bool {
        let reads = OpeningReads(
            source: source, settings: settings, interrupter: interrupter, clock: clock, started: started, unixAtStart: unixAtStart,
            deliver: { [weak self] event, at in _ = self?.deliver(event, at: at) },
            decorate: { [weak self] url in self?.machine.withLock { $0.cmcdDecoration(for: url) } },
            cancelled: { [weak self] in self?.isCancelled ?? true })
        var dashLive = false
        let (input, openBegan, lowLatency): (MediaInput, Double, LowLatencyPlayback?)
        switch reads.open(requestLog: requestLog, dashLive: &dashLive) {
        case .failed(let event):
            deliver(event)
            return dashLive
        case .opened(let opened, let began, let parts): (input, openBegan, lowLatency) = (opened, began, parts)
        }
        var reading = CheckReading(input: input, settings: settings, source: source, playsParts: lowLatency != nil)
        let first = deliver(.opened(reading.opened(openBegan: openBegan, limit: reads.requests(opening: true).limit)))
        if machine.withLock({ $0.failedBeforeReceiving }) { return dashLive }
        input.discardAllStreams(except: reading.kept)
        if let limit = reading.sampleLimit {
            clock.schedule(at: started + limit) { [weak self] in
                self?.samplingOver.store(true, ordering: .releasing)
                self?.interrupter.cancel()
            }
        }
        let end = receive(&reading, first, dashLive: dashLive)
        deliver(.ended(end, requests: reads.requests(opening: false, bytes: reading.bytesReceived, partStalled: lowLatency?.stalledSentence)))
        // The client's thread ends with the check: its request in flight sees the cancel, its wait the alarm.
        lowLatency?.finish()
        return dashLive
    }

    /// The loop: do what the machine says (read, wait, stop), pace to `--rate`, hand packets over.
    private func receive(_ reading: inout CheckReading, _ first: CheckMachine.Action, dashLive: Bool) -> CheckEvent.How {
        var (action, received) = (first, false)
        while true {
            // A cancel that came before receiving began (even before opening) is seen here.
            if isCancelled { return .interrupted }
            if samplingOver.load(ordering: .acquiring) { return .sampled }
            switch action {
            case .sampleOver: return .sampled
            case .wait(let until):
                guard wait(until: until) else { return interruption() }
                // The clock reached `until`; its reading counted from the start may round a hair below it,
                // which would only ask for the same wait again.
                action = deliver(.advanced, at: max(now(), until))
                continue
            case .read: break
            }
            let packet: Packet?
            do { packet = try reading.input.readPacket() } catch {
                return samplingOver.load(ordering: .acquiring) ? .sampled : isCancelled ? .interrupted : .failed(error)
            }
            guard let packet else { return .endOfFile }
            // A read the interrupt cut short hands back a truncated packet: not media that arrived.
            if isCancelled { return .interrupted }
            guard reading.receives(packet) else { continue }
            if let rate = settings.rate, let release = reading.releaseTime(of: packet, rate: rate, now: now()) {
                guard wait(until: release) else { return interruption() }
            }
            reading.count(packet)
            // The first packet places a live DASH input's start: FFmpeg's requests until then are needed.
            if dashLive, !received { deliverRequests() }
            received = true
            action = deliver(.packet(reading.event(for: packet)))
        }
    }

    /// Sleeps until `time` (seconds since the start); `false` when interrupted or the sample ended first
    /// (both cancel the interrupter, whose alarm ends the sleep at once).
    private func wait(until time: Double) -> Bool {
        while true {
            if isCancelled || samplingOver.load(ordering: .acquiring) { return false }
            // Compared on the clock's own readings: `clock.now() - started` may round below `time` when
            // the clock reads exactly `started + time`.
            let deadline = started + time
            if clock.now() >= deadline { return true }
            clock.sleep(until: deadline, alarm: interrupter.alarm)
        }
    }

    private var isCancelled: Bool { cancelled.load(ordering: .acquiring) }
    private func interruption() -> CheckEvent.How { isCancelled ? .interrupted : .sampled }

    /// Hands the machine FFmpeg's requests of a live DASH input not handed over yet.
    private func deliverRequests() {
        let (entries, dropped) = (requestLog.entries, requestLog.dropped)
        let handed = machine.withLock { $0.dashRequestsSeen }
        guard entries.count > handed || dropped > 0 else { return }
        deliver(.dashRequests(Array(entries.dropFirst(handed)), dropped: dropped))
    }
}
