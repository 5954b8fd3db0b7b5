import MediaIO
package import PlaybackModel
import InputReading

/// `check`'s rules as a pure machine in the shape of `Player`: events and `now` (seconds since the check
/// began) in, one action out. It owns the `PlaybackSession` and decides when to read, how long to wait,
/// when the sample is over and how the player ends; it does no I/O and reads no clock, so the same
/// machine runs against a real stream (`CheckSession`, the driver, with the wall clock) and in virtual
/// time (the tests, with packets that arrive at given times, and `CheckReplay`, with a recorded run).
///
/// Every rule's state is here, as values: the live latency (`LiveEdgeState`), the playlists' health
/// (`PlaylistWatch`), the LL-HLS monitor, a live DASH input's analysis, what FFmpeg logged (`FFmpegLines`),
/// the CMCD keys, the byte and bit-rate tallies; `handle(_:at:)` takes each `CheckEvent` and the report,
/// verdict included, is built from them (`report`, complete after `.closed`).
///
/// Rules:
/// - Clock 0 is the moment the check began: opening counts as startup delay.
/// - Reading follows the player's loading actions: it reads while the player wants data (below the
///   forward-buffer target) and otherwise waits until the player's next deadline (the buffer falling
///   below the target, a stall, the end), at most `longestWait` at a time, the one time its answer can
///   change without input.
/// - A sample limit (`--duration`, or the live default) ends receiving at that time, whatever arrives.
/// - The end: after the input ended, the player plays out what it has on its own deadlines (nothing can
///   arrive any more); a failure fails the player at the time it happened; a sample or an interruption
///   advances it to that time.
package struct CheckMachine: Sendable {
    /// What the driver does next.
    package enum Action: Sendable, Equatable {
        /// Read the next packet and report it with `received(...)` (or the end with `finish(...)`).
        case read
        /// Wait until this time, then call `advance(to:)`.
        case wait(until: Double)
        /// Stop receiving: the sample is over. Call `finish(.sampled, ...)`.
        case sampleOver
    }

    /// How receiving stopped.
    package enum End: Sendable, Equatable {
        /// The input ended (end of file, or of a finished playlist).
        case endOfInput
        /// The sample limit was reached.
        case sampled
        /// The user stopped the check (Ctrl-C).
        case interrupted
        /// Receiving failed; the sentence is the player's failure.
        case failed(String)
    }

    /// The longest the driver waits without asking the machine again.
    package static let longestWait = 1.0

    /// The media as it opened.
    package struct Opened: Sendable {
        /// The streams the player plays (`PlaybackSession.playableStreams(from:)`).
        package var playableStreams: [Int]
        /// The declared duration; a live input has none.
        package var duration: MediaDuration
        /// The declared start of the media (FFmpeg's start time).
        package var mediaStart: Double
        /// When receiving ends whatever arrives (`--duration`, or a live input's default); `nil` for none.
        package var sampleLimit: Double?

        /// The media as it opened.
        package init(playableStreams: [Int], duration: MediaDuration, mediaStart: Double, sampleLimit: Double?) {
            self.playableStreams = playableStreams
            self.duration = duration
            self.mediaStart = mediaStart
            self.sampleLimit = sampleLimit
        }
    }

    /// Where the check is.
    enum State: Sendable {
        /// Opening the input: nothing to play yet.
        case opening
        /// Receiving: the session fed with packets, and whether the player wants data.
        case receiving(Receiving)
        /// Receiving is over: the session as the player left it.
        case finished(PlaybackSession)
    }

    struct Receiving: Sendable {
        var session: PlaybackSession
        /// Whether the player's last loading action was `startLoading` (it wants data).
        var wantsData = true
        var sampleLimit: Double?
    }

    var state: State = .opening
    /// The buffer policy the player follows.
    package let policy: BufferPolicy
    /// `--record-trace`: the bytes received over time and when the player stopped loading.
    package internal(set) var recording: ThroughputRecording?
    /// The check's counters, for the live line and the report.
    package internal(set) var counters = Counters()

    /// What arrived so far, counted as it arrived.
    package struct Counters: Sendable, Equatable {
        /// Bytes received (including packets of streams the player does not play).
        package var bytes: Int64 = 0
        /// When the first and the latest packet arrived.
        package var firstPacketTime: Double?
        package var lastPacketTime: Double?
        /// Seconds of playable media received.
        package var mediaReceived = 0.0
    }

    /// The URL or path checked, and the options in force.
    package let source: String
    package let settings: CheckSettings
    /// The report as built so far; complete once `.closed` was handled.
    package internal(set) var report: CheckReport
    /// The events handled, in order, when `--record-events` keeps them.
    package internal(set) var events: [CheckEvent.Timed]?
    /// What FFmpeg logged, reduced to what the sentences need.
    package internal(set) var lines = FFmpegLines()
    /// The live playlists FFmpeg reloaded, judged.
    var playlists = PlaylistWatch()
    /// How far behind the live edge the player is.
    var live = LiveEdgeState(unixAtStart: 0)
    /// A live DASH input's analysis and FFmpeg's requests.
    var dash: DASHLive?
    /// The LL-HLS path's rules, the hold-back aimed at and its rule, and the sentence that stopped it.
    var parts: Parts?
    /// `--cmcd`: the per-request keys, from the player's state.
    var cmcd: CMCDRequests?
    /// The bytes, bit rates and media span received.
    var tally = ReceivedTally()
    /// The input as it opened.
    var input: CheckEvent.Opened?
    /// How many segments FFmpeg had skipped when opening finished.
    var segmentsFailedWhileOpening = 0
    /// The sentence the check fails with, once known.
    var failure: String?
    /// How receiving stopped, once it did.
    var how: CheckEvent.How?
    /// What the resource gate refused or skipped, as the last end event gave it.
    var skipped: CheckEvent.Requests?
    /// Whether the check is over (`.closed` handled): no progress is due any more.
    var closed = false

    /// A machine for a check with `policy`; `recordsTrace` keeps a `ThroughputRecording`.
    package init(policy: BufferPolicy, recordsTrace: Bool = false) {
        var settings = CheckSettings()
        settings.policy = policy
        settings.recordsTrace = recordsTrace
        self.init(source: "", settings: settings)
    }

    /// A machine for a check of `source` with `settings`; `recordsEvents` keeps every event handled.
    package init(source: String, settings: CheckSettings, recordsEvents: Bool = false) {
        self.source = source
        self.settings = settings
        policy = settings.policy
        if settings.recordsTrace { recording = ThroughputRecording() }
        if recordsEvents { events = [] }
        cmcd = settings.cmcd.map(CMCDRequests.init)
        report = Self.base(source: source, settings: settings)
        if InputKind(source).isNetwork, ContainerFormat(namedBy: source) == .hls {
            live.liveStart(settings.liveStart.description)
        }
    }

    // MARK: Events

    /// The input opened at `now`: the player is created at clock 0 and advanced to `now`.
    package mutating func opened(_ media: Opened, now: Double) -> Action {
        guard case .opening = state else { return next(now: now) }
        let session = PlaybackSession(
            playableStreams: media.playableStreams, duration: media.duration, policy: policy,
            mediaStart: media.mediaStart, now: 0)
        state = .receiving(Receiving(session: session, sampleLimit: media.sampleLimit))
        update(at: now) { $0.advance(to: now) }
        return next(now: now)
    }

    /// A packet arrived at `now`. `bytesReceived` and `bytesDelivered` are the totals so far (every
    /// stream, and what a player would have downloaded); a corrupt packet (the cut-off end of a short
    /// body) counts as bytes but a player could not present it.
    package mutating func received(
        _ packet: MediaPacket, corrupt: Bool = false, bytesReceived: Int64, bytesDelivered: Int64, now: Double
    ) -> Action {
        if counters.firstPacketTime == nil { counters.firstPacketTime = now }
        counters.lastPacketTime = now
        counters.bytes = bytesReceived
        recording?.add(time: now, bytes: bytesDelivered)
        update(at: now) { session in corrupt ? session.advance(to: now) : session.receive(packet, now: now) }
        if let session { counters.mediaReceived = session.received.totalDuration }
        return next(now: now)
    }

    /// Time passed to `now` with nothing received (a wait ended, or the live line asks).
    package mutating func advance(to now: Double) -> Action {
        update(at: now) { $0.advance(to: now) }
        return next(now: now)
    }

    /// `--record-trace`: a request opened at `time` after `latency` seconds (timed by the resource gate).
    package mutating func requestOpened(at time: Double, latency: Double) {
        recording?.addLatency(start: time, seconds: latency)
    }

    /// Receiving stopped at `now` for `end`; the player ends as the rules say, and the session as it left
    /// it is returned (`nil` when the input never opened).
    @discardableResult
    package mutating func finish(_ end: End, now: Double) -> PlaybackSession? {
        guard case .receiving(var receiving) = state else {
            if case .finished(let session) = state { return session }
            return nil
        }
        var actions: [PlayerAction]
        switch end {
        case .failed(let sentence):
            actions = receiving.session.failed(sentence, now: now)
        case .endOfInput:
            actions = receiving.session.endOfStream(now: now)
            actions += receiving.session.playOut()
        case .sampled, .interrupted:
            actions = receiving.session.advance(to: now)
        }
        Self.act(on: actions, &receiving, &recording, at: now)
        state = .finished(receiving.session)
        return receiving.session
    }

    // MARK: Queries

    /// The session: the player and what it received (`nil` before the input opened).
    package var session: PlaybackSession? {
        switch state {
        case .opening: nil
        case .receiving(let receiving): receiving.session
        case .finished(let session): session
        }
    }

    /// Whether receiving is over.
    package var isFinished: Bool { if case .finished = state { true } else { false } }

    /// Whether the player wants data (its last loading action was `startLoading`).
    package var wantsData: Bool { if case .receiving(let receiving) = state { receiving.wantsData } else { false } }

    /// What the driver does next at `now`, without changing anything.
    package func next(now: Double) -> Action {
        guard case .receiving(let receiving) = state else { return .read }
        if let limit = receiving.sampleLimit, now >= limit { return .sampleOver }
        let player = receiving.session.player
        // Time passing only drains the buffer, so a player that wants data wants it until the next
        // packet, whose delivery advances it (`Player.advance` steps through every deadline on the way).
        guard !receiving.wantsData, !player.state.isTerminal, !player.item.isLoadedThroughEnd else { return .read }
        // Without a deadline nothing changes without input; look again after a while all the same.
        var until = min(player.nextDeadline ?? .infinity, now + Self.longestWait)
        if let limit = receiving.sampleLimit { until = min(until, limit) }
        return .wait(until: until)
    }

    // MARK: Acting

    /// Runs `body` on the session while receiving and acts on the player's actions at `now`.
    private mutating func update(at now: Double, _ body: (inout PlaybackSession) -> [PlayerAction]) {
        guard case .receiving(var receiving) = state else { return }
        let actions = body(&receiving.session)
        Self.act(on: actions, &receiving, &recording, at: now)
        state = .receiving(receiving)
    }

    /// The player's actions the check acts on: it reads only while the player asks for data; stalls,
    /// seeks and the end are in the player's report.
    private static func act(
        on actions: [PlayerAction], _ receiving: inout Receiving, _ recording: inout ThroughputRecording?, at now: Double
    ) {
        for action in actions {
            switch action {
            case .startLoading: receiving.wantsData = true
            case .stopLoading: receiving.wantsData = false
            case .started, .stallBegan, .stallEnded, .seekStarted, .seekCompleted, .skippedGap, .ended, .failed:
                break
            }
        }
        recording?.loading(receiving.wantsData, at: now)
    }
}
