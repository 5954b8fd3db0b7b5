/// Plays media over a simulated network in virtual time, driving the shared `Player` state machine and its
/// `BufferPolicy` unchanged, and records the event timeline and the player's `QoEReport`.
///
/// Event-driven: the clock jumps straight to the next of (a) the unit being downloaded completing,
/// (b) the next script step, (c) the player's `nextDeadline` (playhead reaching the end of loaded data or
/// of the media, the buffer falling below the forward target). Work is O(1) amortized per unit, so the
/// run is linear in the number of packets. Pure and deterministic: the same inputs give the same events.
///
/// How the downloader behaves (choices, documented):
/// - Progressive media is one HTTP request read in byte order: one request latency, then bytes at the
///   network's rate. A packet is loaded once every byte up to its end has arrived (`SimulationMedia`),
///   and, for a file whose index follows the media read sequentially (`SimulationMedia.indexByteEnd`),
///   not before the index has arrived: a plain sequential download of a non-faststart MP4 plays nothing
///   until then.
/// - A file whose index follows the media fetched by range requests (`SimulationMedia.download`,
///   `DownloadLayout.rangeRequests`) first sends a request for its head (the bytes before the first
///   packet: where libavformat's demuxer finds the media box and no index), then one for the index's bytes,
///   then one for the media from its first packet, each paying the latency: the figures `probe` gives for
///   a range-request player. The head and index are fetched once; a seek later only sends its own request
///   (one cut short by a seek or a stop is fetched again whole).
/// - When the player stops loading (forward-buffer target reached) the connection stays open and idle, as
///   Media3's progressive loader blocks on a condition: resuming costs no new latency (a request per resume
///   would charge a latency per packet). A paused partial packet keeps the bytes it already has.
/// - A `startLoading(from:)` for a position other than where the current request's data has reached
///   (within the 0.1 s merge tolerance) abandons the request and sends a new one, with latency, from the
///   seek point's byte offset (`SimulationMedia.restartUnit(for:)`): a seek out of the buffer or into evicted data.
/// - Segmented media (HLS, DASH) sends one request per segment, latency each; a segment becomes loaded
///   when all of it has arrived; a stopped segment is abandoned and requested again later. A variant's
///   initialization segment (`#EXT-X-MAP`, DASH `Initialization`) is requested once, on its own (latency
///   and bytes), right before the first segment fetched at that variant, and kept for the session: never
///   again for its later segments, after a seek, or when the rule comes back to the variant. One that is
///   stopped half-way is requested again whole.
/// - Eviction behind the playhead is the player's back-buffer rule; packets held never re-add evicted time.
/// - End of stream is announced when the last unit arrives and the loaded data does not reach the end of
///   the media by itself (a hole, or streams ending at slightly different times), so the player can skip
///   the hole or end; otherwise seeks after the download can still ask for evicted data again.
/// - A separate audio track (`SimulationAudioTrack`: a DASH audio adaptation set, an HLS audio rendition)
///   is fetched beside a segmented video on its own requests, sharing the link equally while both
///   transfer; what plays is the time both tracks hold.
///
/// The engine composes a script queue, a downloader (its state, and the request in flight held apart) and,
/// over a ladder, the variant selection (the rule and abandonment): it routes the player's actions to the
/// downloader, the downloader's arrivals to the session, and records the timeline.
public struct SimulationEngine: Sendable {
    /// The media being downloaded.
    public let media: SimulationMedia
    /// The network, with the script's bandwidth changes, outages and latency changes applied.
    public let network: NetworkModel
    /// The policy the player runs with.
    public let policy: BufferPolicy
    /// The packet-to-player pipeline: the range tracker, the player, the presentation origin.
    public internal(set) var session: PlaybackSession
    /// The player being driven.
    public var player: Player { session.player }
    /// The session clock, in seconds.
    public internal(set) var clock: Double = 0
    /// The timeline so far.
    public private(set) var events: [SimulationEvent] = []
    /// Whether the session is over (ended with no script step left, or nothing can happen any more).
    public private(set) var isFinished = false
    /// Bytes received so far (every request, including bytes of abandoned requests that arrived).
    public var bytesReceived: Int64 { downloader.bytesReceived + (audioTrack?.downloader.bytesReceived ?? 0) }
    /// Requests sent so far.
    public var requests: Int { downloader.requests + (audioTrack?.downloader.requests ?? 0) }
    /// The ladder simulated, or `nil` for one variant.
    public let ladder: SimulationLadder?
    /// The buffer size BOLA works with (`AbrController.bolaBufferTarget`), or `nil` without BOLA.
    public var bolaBufferTarget: Double? { selection?.controller.bolaBufferTarget }
    /// Segment requests abandoned for a lower variant (`abandon`).
    public var abandonedRequests: Int { selection?.abandonedRequests ?? 0 }
    /// Whether the rule is a player's model that abandons by its own rule (`PlayerAbrModel`).
    public var abandonsByItself: Bool { selection?.abandonCheckInterval(requested: false) != nil }
    /// Every change of variant, in order.
    public var switches: [AbrSwitch] { selection?.switches ?? [] }
    /// Per segment, the ascending ladder index of the copy last delivered to the player (-1: none yet).
    public var deliveredVariants: [Int] { selection?.deliveredVariants ?? [] }
    /// Per variant (ascending), segments and bytes delivered whole (bytes with the variant's
    /// initialization segment).
    public var deliveredPerVariant: [(segments: Int, bytes: Int64)] { selection?.deliveredPerVariant ?? [] }
    /// The variant of the segment being (or about to be) downloaded: the live line's colour.
    public var currentVariant: Int { downloader.variant }
    /// The unit (a segment, for HLS) being or next to be downloaded; `media.unitCount` once all are in.
    public var currentUnit: Int { downloader.nextUnit }

    var script: SimulationScriptQueue
    var downloader: SimulationDownloader
    /// The separate audio track beside the video, when the media has one.
    var audioTrack: SimulationAudioTrack?
    /// The adaptive choices, over a ladder; `nil` for one variant.
    var selection: VariantSelection?
    /// Whether the end of stream was announced to the session.
    var announcedEndOfStream = false

    /// Prepares a session at clock 0. Bandwidth, outage and latency steps are applied to `network` here;
    /// seek, pause, play and rate steps act on the player at their time. Steps at the same time run in the
    /// order given. Seek targets are seconds from the playable start (the presentation origin).
    ///
    /// With `autoplay` false the player opens paused and loads up to the forward target until a `play`
    /// step: "preload for D seconds, then press play", which is what `ProgressiveDownloadNeeds` calls a startup
    /// delay of D (the QoE report then counts the wait as paused time, and its startup delay from the press).
    /// With `audio`, that separate audio track is fetched beside the video (`SimulationAudioTrack`).
    public init(
        media: SimulationMedia, network: NetworkModel, policy: BufferPolicy, steps: [SimulationStep] = [],
        autoplay: Bool = true, audio: SimulationMedia? = nil
    ) {
        self.init(
            media: media, ladder: nil, rule: nil, network: network, policy: policy, steps: steps, autoplay: autoplay,
            abandon: false, audio: audio)
    }

    /// Prepares a session over an adaptive ladder: each segment request goes out at the variant `rule`
    /// picks then (with the buffer level at that moment, and the throughput of earlier segments over their
    /// transfers, first byte to last, with their request latencies apart); a segment in flight keeps its
    /// variant (no abandonment; buffered segments are replaced only by a player model's fast switch).
    ///
    /// With `abandon`, a segment above the lowest variant is checked every 0.5 s from its first byte: when
    /// the bytes left, at the rate this request has had so far, would take longer than the buffer ahead,
    /// the request is dropped (the bytes that came count as received) and the same segment is requested
    /// again at the highest lower variant whose whole segment fits the buffer at that rate, else the lowest
    /// (as dash.js's AbandonRequestsRule and Sabre's abandonment).
    public init(
        ladder: SimulationLadder, rule: AbrRule, network: NetworkModel, policy: BufferPolicy,
        steps: [SimulationStep] = [], autoplay: Bool = true, abandon: Bool = false, audio: SimulationMedia? = nil
    ) {
        self.init(
            media: ladder.media(variant: 0), ladder: ladder, rule: rule, network: network, policy: policy,
            steps: steps, autoplay: autoplay, abandon: abandon, audio: audio)
    }

    private init(
        media: SimulationMedia, ladder: SimulationLadder?, rule: AbrRule?, network: NetworkModel,
        policy: BufferPolicy, steps: [SimulationStep], autoplay: Bool, abandon: Bool, audio: SimulationMedia?
    ) {
        self.media = media
        self.ladder = ladder
        self.policy = policy
        var variantUnits: [[SimulationMedia.Unit]] = []
        var selection: VariantSelection?
        if let ladder, let rule {
            variantUnits = ladder.variants.indices.map { ladder.media(variant: $0).units }
            selection = VariantSelection(
                ladder: ladder, rule: rule, forwardTarget: policy.forwardTarget, variantUnits: variantUnits,
                segmentCount: media.unitCount)
        }
        self.selection = selection
        var network = network
        script = SimulationScriptQueue(steps: steps, network: &network)
        self.network = network
        downloader = SimulationDownloader(
            media: media, network: network, variantUnits: variantUnits,
            initializationBytes: ladder.map { $0.variants.map(\.initializationBytes) } ?? [media.initializationBytes])
        if let audio, media.layout == .segmented, audio.layout == .segmented, audio.unitCount > 0 {
            audioTrack = SimulationAudioTrack(media: audio, network: network)
        }
        session = PlaybackSession(
            playableStreams: media.playableStreams, duration: .finite(media.duration), policy: policy,
            mediaStart: media.startTime, autoplay: autoplay, now: 0)
        record(.session, value: nil)
        downloader.recordsArrival = selection?.controller.playerNeedsArrival == true
        let judgesFirst = selection?.controller.playerJudgesFirstRequest == true
        if judgesFirst { downloader.abandonDelay = selection?.abandonCheckInterval(requested: abandon) }
        handle(session.advance(to: 0))
        // Abandonment applies from here on: the request sent at clock 0 above (the first segment, at startup,
        // with nothing buffered) is never checked, as the engine has always done, unless a model judges it.
        downloader.abandonDelay = selection?.abandonCheckInterval(requested: abandon)
    }

    /// What the session produced so far.
    public var result: SimulationResult {
        SimulationResult(
            events: events, report: session.report, duration: clock, bytesReceived: bytesReceived,
            requests: requests, finished: isFinished, audioAloneTime: audioTrack?.audioAloneTime ?? 0)
    }

    /// Runs the session to its end.
    public static func run(
        media: SimulationMedia, network: NetworkModel, policy: BufferPolicy, steps: [SimulationStep] = [],
        autoplay: Bool = true
    ) -> SimulationResult {
        var engine = SimulationEngine(media: media, network: network, policy: policy, steps: steps, autoplay: autoplay)
        engine.run()
        return engine.result
    }

    /// Processes every event up to session time `limit` (all of them by default), leaving the clock at
    /// `limit` when the session goes on past it: a live display calls this with the scaled wall clock.
    public mutating func run(until limit: Double = .infinity) {
        // A viewer's action since the last call may have sent a request, or resumed playback.
        afterTrackStep(from: nil)
        while !isFinished {
            let mark = pictureMark()
            let completion = downloader.completionTime
            let step = script.nextTime
            let deadline = session.player.nextDeadline ?? .infinity
            let check = downloader.abandonCheckTime
            let audioCompletion = audioTrack?.downloader.completionTime ?? .infinity
            let flowStart = audioTrack == nil ? .infinity : nextFlowStart()
            let recheck = audioTrack?.recheckTime ?? .infinity
            var next = min(completion, step, deadline, check, audioCompletion, flowStart, recheck)
            // Held paused with nothing scheduled (an interactive pause) only waits for the viewer, when
            // there is one driving the clock; with no limit nothing would ever come.
            if !next.isFinite, limit.isFinite, case .paused = session.player.state { next = limit.nextUp }
            if next > limit {
                if limit > clock {
                    clock = limit
                    handle(session.advance(to: limit))
                }
                return
            }
            guard next.isFinite else {
                record(.stuck, value: nil)
                isFinished = true
                return
            }
            clock = max(clock, next)
            if completion <= next {
                completeDownload()
            } else if audioCompletion <= next {
                completeAudioDownload()
            } else if flowStart <= next {
                // A request's bytes start to flow: the link is shared anew below.
            } else if step <= next, let entry = script.popNext() {
                perform(entry)
            } else if check <= next {
                checkAbandonment()
            } else if recheck <= next {
                handle(session.advance(to: clock))
                loadTracks()
            } else {
                handle(session.advance(to: clock))
            }
            afterTrackStep(from: mark)
            // A seek still to come takes an ended session on; a failed one is over.
            if case .failed = session.player.state {
                isFinished = true
            } else if session.player.state.isTerminal, !script.hasPendingSeek {
                isFinished = true
            }
        }
    }

    // MARK: Player actions

    mutating func handle(_ actions: [PlayerAction]) {
        for action in actions {
            switch action {
            case .startLoading(let from): startLoading(from: from)
            case .stopLoading:
                // Beside an audio track an MSE player lets segment requests in flight complete (the grace
                // lent can reach the end before the video's last segment is in); no new one goes out.
                guard audioTrack == nil || media.layout != .segmented || session.player.state.isTerminal else { break }
                downloader.stop(at: clock)
                audioTrack?.downloader.stop(at: clock)
            case .started(let delay): record(.startup, value: delay)
            case .stallBegan(let position): record(.stallStart, position: position, value: nil)
            case .stallEnded(let position, let duration): record(.stallEnd, position: position, value: duration)
            case .seekStarted: break
            case .seekCompleted(_, let to, let latency): record(.seekComplete, position: to, value: latency)
            case .skippedGap(let range): record(.gapSkipped, position: range.start, value: range.duration)
            case .ended(let position): record(.end, position: position, value: nil)
            case .failed: record(.stuck, value: nil)
            }
        }
        session.recycle(actions)
    }

    /// Adds an event; `position` is a media time, shown from the playable start like every time a user sees.
    mutating func record(_ kind: SimulationEvent.Kind, position: Double? = nil, value: Double?) {
        let mediaTime = position ?? session.player.currentTime
        events.append(
            SimulationEvent(time: clock, kind: kind, position: session.presentationTime(mediaTime), value: value))
    }

    // MARK: Downloading

    /// The player wants data from `position`: the request in flight carries on when its data has reached
    /// there; otherwise it is dropped and a new one goes out from the seek point's bytes.
    private mutating func startLoading(from position: Double) {
        if audioTrack != nil {
            startLoadingTracks(from: position)
            return
        }
        if downloader.continues(from: position, deliveredPlayableEnd: session.deliveredPlayableEnd) {
            guard !downloader.isLoading else { return }
            if media.layout == .segmented {
                chooseVariant()
                downloader.requestSegment(at: clock)
            } else {
                downloader.resume(at: clock)
            }
            return
        }
        let unit = media.restartUnit(for: position)
        guard unit < media.unitCount else { return }
        downloader.move(to: unit, position: position, at: clock)
        session.restartDelivery()
        if media.layout == .segmented {
            selection?.noteSeek(segment: unit)
            chooseVariant()
        }
        let origin = downloader.requestFromNextUnit(at: clock)
        record(.request, value: Double(origin))
    }

    /// Asks the rule for the variant of the next segment, before its request goes out; after an up-switch,
    /// a player's fast switch may send it back to a buffered segment (`VariantSelection.fastSwitchSegment`).
    mutating func chooseVariant() {
        let (buffer, segment, count, now) = (abrBufferedAhead, downloader.nextUnit, media.unitCount, clock)
        guard let choice = selection?.choose(buffer: buffer, segment: segment, segmentCount: count, at: now) else { return }
        if choice.switched { record(.variantSwitch, value: ladder?.variants[choice.variant].bitRate) }
        downloader.variant = choice.variant
        guard choice.switched, let replaced = selection?.fastSwitchSegment(
            playhead: session.player.currentTime, buffer: buffer, deliveredEnd: downloader.deliveredUnitEnd)
        else { return }
        selection?.noteReplacement(from: replaced)
        downloader.replace(from: replaced)
    }

    /// Drops the segment in flight for a lower variant when, at this request's rate so far, its bytes left
    /// would arrive after the buffer runs dry (see `init(ladder:...)`).
    private mutating func checkAbandonment() {
        handle(session.advance(to: clock))
        guard selection != nil,
            let interval = selection?.abandonCheckInterval(requested: true),
            let progress = downloader.abandonmentProgress(at: clock, nextCheck: clock + interval),
            progress.elapsed > 0
        else { return }
        let (segment, from, buffer) = (downloader.nextUnit, downloader.variant, abrBufferedAhead)
        guard
            let abandonment = selection?.abandonment(
                of: progress, variant: from, segment: segment, buffer: buffer,
                playing: !session.player.state.isPaused, at: clock)
        else { return }
        downloader.abandon(at: clock)
        selection?.noteAbandoned(abandonment, from: from, segment: segment, progress: progress, at: clock)
        record(.variantSwitch, value: ladder?.variants[abandonment.variant].bitRate)
        downloader.variant = abandonment.variant
        downloader.requestSegment(at: clock)
    }

    /// The unit in flight arrived: it goes to the session, and the download goes on.
    private mutating func completeDownload() {
        switch downloader.complete(at: clock) {
        case nil, .prelude:
            return
        case .initialization(let variant, let bytes):
            selection?.noteInitialization(variant: variant, bytes: bytes)
            return
        case .unit(let index, let unit, let bytes, let transfer, let latency):
            switch media.layout {
            case .segmented:
                selection?.noteDelivered(
                    segment: index, variant: downloader.variant, bytes: bytes, transfer: transfer, latency: latency,
                    at: clock, arrival: downloader.arrivalCurve(until: clock))
                let range = TimeRange(start: unit.start, duration: unit.duration)
                if audioTrack != nil {
                    handle(receive(range, on: .video))
                    downloader.releaseAfterDelivery()
                    loadTracks()
                } else {
                    handle(session.receive(range, now: clock))
                }
                if audioTrack == nil, downloader.nextUnit < media.unitCount, downloader.isLoading {
                    chooseVariant()
                    downloader.requestSegment(at: clock)
                }
            case .progressive:
                if let stream = unit.stream {
                    handle(
                        session.receive(
                            MediaPacket(
                                stream: stream, pts: unit.start, dts: unit.start, duration: unit.duration, size: 0,
                                position: nil, isKeyframe: unit.isKeyframe),
                            now: clock))
                }
                downloader.continueAfterDelivery(at: clock)
            }
        }
        guard downloader.nextUnit >= media.unitCount else { return }
        downloader.finish()
        announceEndIfComplete()
    }

    /// Once every track's last unit is in: the download is complete, and the end of stream is announced
    /// when the loaded data does not reach the end by itself.
    mutating func announceEndIfComplete() {
        guard downloader.nextUnit >= media.unitCount,
            (audioTrack.map { $0.downloader.nextUnit >= $0.downloader.media.unitCount } ?? true)
        else { return }
        record(.downloadComplete, value: Double(bytesReceived))
        if !session.player.item.isLoadedThroughEnd, !announcedEndOfStream, !session.player.state.isTerminal {
            announcedEndOfStream = true
            handle(session.endOfStream(now: clock))
        }
    }
}
