import Foundation
import MediaIO
import InputReading

/// The reads bufprobe makes for a check before and as FFmpeg opens the input (`CheckSession`'s I/O before
/// receiving): the request policy's admission, an HLS playlist read first (where live starts, the LL-HLS
/// path), a live DASH manifest and its clock, and FFmpeg's open. What it observes goes to the check's
/// machine through `deliver` as `CheckEvent`s; the sentences are `CheckSentence`'s and the gate's.
struct OpeningReads: Sendable {
    /// The input, the options in force, and the check's interrupter (its resource gate and policy).
    let source: String
    let settings: CheckSettings
    let interrupter: Interrupter
    /// The check's clock, and its reading as seconds since the check began.
    let clock: any CheckClock
    let now: @Sendable () -> Double
    /// The wall clock at the check's clock 0, Unix seconds (a DASH clock's reading is placed against it).
    let unixAtStart: Double
    /// Hands an observation to the machine.
    let deliver: @Sendable (CheckEvent) -> Void
    /// `--cmcd`: the keys for a request, from the machine.
    let decorate: (@Sendable (String) -> RequestDecoration?)?
    /// `--record-trace`: each request's latency, timed by the resource gate, on the check's clock.
    let timing: RequestTiming?
    /// Whether the user stopped the check.
    let cancelled: @Sendable () -> Bool

    /// The reads of a check's input whose clock read `started` at its clock 0, delivering to `deliver` (with
    /// the time, when not now); `decorate` is used with `--cmcd` only.
    init(
        source: String, settings: CheckSettings, interrupter: Interrupter, clock: any CheckClock, started: Double,
        unixAtStart: Double, deliver: @escaping @Sendable (CheckEvent, Double?) -> Void,
        decorate: @escaping @Sendable (String) -> RequestDecoration?, cancelled: @escaping @Sendable () -> Bool
    ) {
        (self.source, self.settings, self.interrupter, self.clock) = (source, settings, interrupter, clock)
        let now: @Sendable () -> Double = { clock.now() - started }
        self.now = now
        self.unixAtStart = unixAtStart
        self.deliver = { deliver($0, nil) }
        self.decorate = settings.cmcd == nil ? nil : decorate
        self.cancelled = cancelled
        timing = settings.recordsTrace ? RequestTiming(now: now) { begun, seconds in
            deliver(.requestOpened(latency: seconds), begun)
        } : nil
    }

    /// What the request policy (`--deny-private`, serve's `--allow-target`) lets the check open, decided
    /// before anything is opened.
    struct Admission {
        /// The sentence the check fails with when the input may not be read; `nil` when it may.
        var refusal: String?
        /// Whether the input is a DASH manifest bufprobe read and found leading only to allowed URLs, so
        /// that FFmpeg's DASH demuxer may read it (`MediaInput`'s `dashChecked`).
        var dashChecked = false
        /// The DASH manifest as bufprobe read it to check it, handed to FFmpeg so that it is requested once.
        var manifest: PrefetchedInput?
    }

    /// The input under the request policy. The input itself (its allow-list match is the caller's): the
    /// resource gate checks it again with its redirects, but covers HTTP inputs only (rtmp, srt... too here).
    /// A DASH manifest is read and checked by bufprobe before FFmpeg opens it (`DASHRequestCheck`), since
    /// FFmpeg 5.1's DASH demuxer requests its segments past the resource gate.
    func admitted() -> Admission {
        guard let policy = interrupter.policy else { return Admission() }
        if let refusal = policy.refusal(for: source, matchingAllowList: false) {
            interrupter.refuse(source, reason: refusal.reason, why: refusal.why)
            return Admission(refusal: CheckSentence.notRequested(source, why: refusal.why))
        }
        guard ContainerFormat(namedBy: source) == .dash else { return Admission() }
        let manifest = InputKind.ffmpegURL(for: settings.requestURL(for: source))
        switch DASHRequestCheck.check(manifest: manifest, source: source, options: settings.formatOptions, interrupter: interrupter) {
        case .allowed(_, let manifest):
            return Admission(dashChecked: true, manifest: manifest)
        case .refused(let url, let why):
            return Admission(refusal: CheckSentence.manifestRefused(source, leadsTo: url, why: why))
        case .unusable(let sentence):
            if cancelled() { return Admission(refusal: CheckSentence.interruptedOpening(source)) }
            return Admission(refusal: CheckEvent.Requests.limitSentence(of: interrupter, source: source, timeout: settings.timeout, opening: true) ?? sentence)
        }
    }

    /// How opening went.
    enum Opening {
        /// The check failed before receiving: the event that says why.
        case failed(CheckEvent)
        /// The input opened; its first read began at `began`; played part by part through `lowLatency`.
        case opened(MediaInput, began: Double, lowLatency: LowLatencyPlayback?)
    }

    /// Opens the input: checks it and its admission, makes the reads before opening, and opens it through
    /// the LL-HLS path or FFmpeg. `dashLive` is set when the input is a live DASH manifest whose requests
    /// FFmpeg logs to `requestLog` (set even when the open then fails).
    func open(requestLog: RequestLog, dashLive: inout Bool) -> Opening {
        if let problem = InputCheck.problem(with: source) { return .failed(.failed(problem, requests: requests())) }
        let admission = admitted()
        if let refusal = admission.refusal { return .failed(.failed(refusal, requests: requests())) }
        var lowLatency: LowLatencyPlayback?
        // The input's first read is the open's, whoever makes it.
        let began = now()
        let before = readBeforeOpening(lowLatency: &lowLatency)
        if let refusal = before.refusal { return .failed(.failed(refusal, requests: requests())) }
        // A manifest the request policy read and allowed is not live (DASHRequestCheck refuses live ones).
        switch admission.dashChecked ? .notLive : prepareDASHLive() {
        case .unanswered(let sentence): return .failed(.failed(sentence, requests: requests()))
        case .live: dashLive = true
        case .notLive: dashLive = false
        }
        do {
            if let lowLatency { return .opened(try lowLatency.openInput(), began: began, lowLatency: lowLatency) }
            let deliver = self.deliver
            let input = try MediaInput(
                url: InputKind.ffmpegURL(for: settings.requestURL(for: source)),
                options: settings.formatOptions.merging(before.options) { $1 }, interrupter: interrupter,
                playlistLoaded: { url, bytes in deliver(.playlistLoaded(url: url, text: String(decoding: bytes, as: UTF8.self))) },
                requestTiming: timing, decorateRequest: decorate, dashChecked: admission.dashChecked,
                resourceOpened: { url in deliver(.resourceOpened(url: url)) },
                requestLog: dashLive ? requestLog : nil, prefetched: admission.manifest ?? before.input)
            return .opened(input, began: began, lowLatency: nil)
        } catch {
            return .failed(.openFailure(
                error, requests: requests(), source: source, cancelled: cancelled(), policed: interrupter.policy != nil,
                dashChecked: admission.dashChecked))
        }
    }

    /// What the resource gate refused or skipped by now: `opening` when the check stops before receiving,
    /// with `bytes` received and the LL-HLS part still arriving (`partStalled`) when it stops after.
    func requests(opening: Bool = true, bytes: Int64 = 0, partStalled: String? = nil) -> CheckEvent.Requests {
        CheckEvent.Requests(
            gate: interrupter, source: source, timeout: settings.timeout, opening: opening, bytes: bytes, partStalled: partStalled,
            cancelled: cancelled())
    }

    /// The sentence FFmpeg's open gives an input that sent nothing within `--timeout`, when the input's own
    /// first read (under `deadline`, the whole timeout) failed that way: its request had no answer, not
    /// even the response's head (a silent server, not a body that trickles). FFmpeg's open would ask again
    /// and wait as long, so the check would take twice `--timeout` to say nothing arrived within it, and
    /// a live playlist answered the second time would be parsed whole, before any windowing. `nil` for
    /// any other failure (an HTTP error, a refused connection...: FFmpeg's open says why, at once).
    func unansweredInput(_ error: any Error, deadline: VariantProber.RequestDeadline) -> String? {
        guard !cancelled(), let error = error as? FFmpegError, error.operation == "avio_open2" else { return nil }
        guard error.isTimedOut || (error.isInterrupted && deadline.finish()) else { return nil }
        return Interrupter.Reason.timeout.sentence(for: source, timeout: settings.timeout, opening: true)
    }

    /// The longest the reads before opening may take in all (the HLS playlist, the DASH manifest and its
    /// clock), seconds (at most `--timeout`).
    static let prereadBudget = 3.0
    /// The largest playlist read before opening, bytes: a live window of a few hundred segments.
    static let prereadBytes: Int64 = 1 << 20

    /// The interrupter of the reads bufprobe makes before FFmpeg opens the input (`readBeforeOpening`,
    /// `prepareDASHLive`), under a deadline of `prereadBudget` (`VariantProber.RequestDeadline`, as every
    /// `--all-variants` request): its own, so that what it skips is not the player's; a child of the check's,
    /// so that a cancel stops it; sharing the check's pace and request policy. A body that trickles forever
    /// (64 KiB every 0.2 s) never trips the per-call `--timeout`; without the deadline the check would read it
    /// up to 16 MiB before FFmpeg even opens.
    func prereadDeadline(seconds: Double? = nil) -> VariantProber.RequestDeadline {
        VariantProber.RequestDeadline(
            Interrupter(
                timeout: .bounded(seconds: settings.timeout), parent: interrupter, input: source,
                sharingPaceWith: interrupter, policy: settings.requestPolicy),
            seconds: min(settings.timeout, seconds ?? Self.prereadBudget))
    }
}
