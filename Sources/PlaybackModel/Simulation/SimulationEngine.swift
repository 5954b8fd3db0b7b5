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
///   Media3's progressive loader blocks on a condition rather than closing: resuming costs no new latency.
///   (With the player refilling as soon as the buffer dips below the target, a request per resume would
///   charge a latency per packet.) A paused partial packet keeps the bytes it already has.
/// - A `startLoading(from:)` for a position other than where the current request's data has reached
///   (within the 0.1 s merge tolerance) abandons the request and sends a new one, with latency, from the
///   byte offset of the seek point (`SimulationMedia.restartUnit(for:)`): a seek out of the buffer, or
///   back into evicted data.
/// - Segmented media (HLS, DASH) sends one request per segment, latency each; a segment becomes loaded
///   when all of it has arrived; a stopped segment is abandoned and requested again later. A variant's
///   initialization segment (`#EXT-X-MAP`, DASH `Initialization`) is requested once, on its own (latency
///   and bytes), right before the first segment fetched at that variant, and kept for the session: never
///   again for its later segments, after a seek, or when the rule comes back to the variant. One that is
///   stopped half-way is requested again whole.
/// - Eviction behind the playhead is the player's back-buffer rule; the engine only never re-adds evicted
///   time from the packets it already holds.
/// - End of stream is announced when the last unit arrives and the loaded data does not reach the end of
///   the media by itself (a hole, or streams ending at slightly different times), so the player can skip
///   the hole or end; otherwise seeks after the download can still ask for evicted data again.
public struct SimulationEngine: Sendable {
    /// The media being downloaded.
    public let media: SimulationMedia
    /// The network, with the script's bandwidth changes, outages and latency changes applied.
    public let network: NetworkModel
    /// The policy the player runs with.
    public let policy: BufferPolicy
    /// The packet-to-player pipeline: the range tracker, the player, the presentation origin.
    public private(set) var session: PlaybackSession
    /// The player being driven.
    public var player: Player { session.player }
    /// The session clock, in seconds.
    public private(set) var clock: Double = 0
    /// The timeline so far.
    public private(set) var events: [SimulationEvent] = []
    /// Whether the session is over (ended with no script step left, or nothing can happen any more).
    public private(set) var isFinished = false
    /// Bytes received so far (every request, including bytes of abandoned requests that arrived).
    public private(set) var bytesReceived: Int64 = 0
    /// Requests sent so far.
    public private(set) var requests = 0

    private var queue: [Scheduled] = []
    private var queueIndex = 0
    /// `network`, shared by every transfer.
    private let sharedNetwork: NetworkModel.Shared
    /// The media's units, read one at a time (synthetic media is generated as the download reaches it).
    private var units: SimulationMedia.UnitReader

    // Download state.
    private var isDownloading = false
    private var connectionOpen = false
    private var nextUnit = 0
    private var requestOrigin: Int64 = 0
    private var deliveredEnd: Int64 = 0
    private var transfer: NetworkModel.Transfer?
    private var transferAtLastCompletion: NetworkModel.Transfer?
    private var pendingCompletion: Double?
    private var sequenceStart: Double
    private var announcedEndOfStream = false
    private var indexArrived = false
    /// Per variant (ascending; one entry without a ladder), its initialization segment's bytes (0: none).
    private let initializationBytes: [Int64]
    /// Per variant, whether its initialization segment has arrived (or it has none).
    private var initialized: [Bool]
    /// The bytes of the initialization segment being fetched, when the request in flight is for one.
    private var fetchingInitialization: Int64?
    /// Range requests of a file whose index follows the media still to make before its media: the head's
    /// bytes, then the index's (empty once both are in, and for every other file).
    private var preludeFetches: [Int64]
    /// Where the media request goes once the prelude is in.
    private var preludeOrigin: Int64 = 0
    /// The first packet's byte offset: the head request brings every byte before it.
    private let headEnd: Int64

    // Adaptive bit rate (a ladder); all empty or nil for one variant.
    /// Per variant (ascending), its units; empty without a ladder.
    private let variantUnits: [[SimulationMedia.Unit]]
    private var abr: AbrController?
    /// The variant of the segment being requested (ascending ladder index).
    private var inFlightVariant = 0
    private var lastVariant: Int?
    private var requestSentAt: Double = 0
    /// Whether a segment that will not arrive before the buffer runs dry is abandoned for a lower variant.
    private var abandons = false
    /// Session time of the next abandonment check of the segment in flight (`infinity`: none).
    private var abandonCheck = Double.infinity
    private var firstByteAt: Double = 0
    /// Seconds between abandonment checks, and before the first one after the first byte (dash.js's
    /// AbandonRequestsRule waits 500 ms of a download before judging it).
    static let abandonInterval = 0.5
    /// The buffer size BOLA works with (`AbrController.bolaBufferTarget`), or `nil` without BOLA.
    public var bolaBufferTarget: Double? { abr?.bolaBufferTarget }
    /// The ladder simulated, or `nil` for one variant.
    public let ladder: SimulationLadder?
    /// Segment requests abandoned for a lower variant (`abandon`).
    public private(set) var abandonedRequests = 0
    /// Every change of variant, in order.
    public private(set) var switches: [AbrSwitch] = []
    /// Per segment, the ascending ladder index of the copy last delivered to the player (-1: none yet).
    public private(set) var deliveredVariants: [Int] = []
    /// Per variant (ascending), segments and bytes delivered whole (bytes with the variant's
    /// initialization segment).
    public private(set) var deliveredPerVariant: [(segments: Int, bytes: Int64)] = []
    /// The variant of the segment being (or about to be) downloaded: the live line's colour.
    public var currentVariant: Int { inFlightVariant }
    /// The unit (a segment, for HLS) being or next to be downloaded; `media.unitCount` once all are in.
    public var currentUnit: Int { nextUnit }

    /// A script step placed on the engine's queue.
    private struct Scheduled: Sendable {
        enum Kind: Sendable {
            case step(SimulationStep.Action)
            case resume
            case outageEnd
        }
        var time: Double
        var order: Int
        var kind: Kind
    }

    /// Prepares a session at clock 0. Bandwidth, outage and latency steps are applied to `network` here;
    /// seek, pause, play and rate steps act on the player at their time. Steps at the same time run in the
    /// order given. Seek targets are seconds from the playable start (the presentation origin).
    ///
    /// With `autoplay` false the player opens paused and loads up to the forward target until a `play`
    /// step: "preload for D seconds, then press play", which is what `ProgressiveDownloadNeeds` calls a startup
    /// delay of D (the QoE report then counts the wait as paused time, and its startup delay from the press).
    public init(
        media: SimulationMedia, network: NetworkModel, policy: BufferPolicy, steps: [SimulationStep] = [],
        autoplay: Bool = true
    ) {
        self.init(media: media, ladder: nil, rule: nil, network: network, policy: policy, steps: steps, autoplay: autoplay)
    }

    /// Prepares a session over an adaptive ladder: each segment request goes out at the variant `rule`
    /// picks then (with the buffer level at that moment, and the throughput of earlier segments over their
    /// transfers, first byte to last, with their request latencies apart); a
    /// segment in flight keeps its variant (no abandonment, no replacement of buffered segments).
    ///
    /// With `abandon`, a segment above the lowest variant is checked every 0.5 s from its first byte: when
    /// the bytes left, at the rate this request has had so far, would take longer than the buffer ahead,
    /// the request is dropped (the bytes that came count as received) and the same segment is requested
    /// again at the highest lower variant whose whole segment fits the buffer at that rate, else the lowest
    /// (as dash.js's AbandonRequestsRule and Sabre's abandonment).
    public init(
        ladder: SimulationLadder, rule: AbrRule, network: NetworkModel, policy: BufferPolicy,
        steps: [SimulationStep] = [], autoplay: Bool = true, abandon: Bool = false
    ) {
        self.init(
            media: ladder.media(variant: 0), ladder: ladder, rule: rule, network: network, policy: policy,
            steps: steps, autoplay: autoplay)
        abandons = abandon
    }

    private init(
        media: SimulationMedia, ladder: SimulationLadder?, rule: AbrRule?, network: NetworkModel,
        policy: BufferPolicy, steps: [SimulationStep], autoplay: Bool
    ) {
        self.media = media
        self.ladder = ladder
        if let ladder, let rule {
            variantUnits = ladder.variants.indices.map { ladder.media(variant: $0).units }
            abr = AbrController(
                rule: rule, bitRates: ladder.bitRates, segmentDuration: ladder.segmentDuration,
                forwardTarget: policy.forwardTarget)
            deliveredVariants = Array(repeating: -1, count: media.unitCount)
            deliveredPerVariant = Array(repeating: (0, 0), count: ladder.variants.count)
        } else {
            variantUnits = []
        }
        let initialization = ladder.map { $0.variants.map(\.initializationBytes) } ?? [media.initializationBytes]
        initializationBytes = initialization
        initialized = initialization.map { $0 <= 0 }
        var units = media.makeReader()
        if media.layout == .progressive, media.download.fetchesIndexByRange, media.unitCount > 0 {
            headEnd = max(units.unit(0).byteStart, 0)
            preludeFetches = [headEnd, media.download.extraBytes]
        } else {
            headEnd = 0
            preludeFetches = []
        }
        self.units = units
        self.policy = policy
        var network = network
        var queue: [Scheduled] = []
        for (order, step) in steps.enumerated() {
            switch step.action {
            case .bandwidth(let bitsPerSecond): network.setBandwidth(bitsPerSecond, at: step.time)
            case .outage(let duration):
                network.addOutage(at: step.time, duration: duration)
                queue.append(Scheduled(time: step.time + duration, order: order, kind: .outageEnd))
            case .latency(let latency): network.setLatency(latency, at: step.time)
            case .pause(let duration):
                queue.append(Scheduled(time: step.time + duration, order: order, kind: .resume))
            case .seek, .rate, .play: break
            }
            queue.append(Scheduled(time: step.time, order: order, kind: .step(step.action)))
        }
        // Ends of pauses and outages sort after steps written at the same time.
        queue.sort { ($0.time, $0.order) < ($1.time, $1.order) }
        self.queue = queue
        self.network = network
        self.sharedNetwork = NetworkModel.Shared(network)
        self.sequenceStart = media.startTime
        self.session = PlaybackSession(
            playableStreams: media.playableStreams, duration: .finite(media.duration), policy: policy,
            mediaStart: media.startTime, autoplay: autoplay, now: 0)
        record(.session, value: nil)
        handle(session.advance(to: 0))
    }

    /// What the session produced so far.
    public var result: SimulationResult {
        SimulationResult(
            events: events, report: session.report, duration: clock, bytesReceived: bytesReceived,
            requests: requests, finished: isFinished)
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
        while !isFinished {
            let completion = isDownloading ? completionTime() : .infinity
            let step = queueIndex < queue.count ? queue[queueIndex].time : .infinity
            let deadline = session.player.nextDeadline ?? .infinity
            let check = isDownloading ? abandonCheck : .infinity
            var next = min(completion, step, deadline, check)
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
                completeUnit()
            } else if step <= next {
                performStep(queue[queueIndex])
                queueIndex += 1
            } else if check <= next {
                checkAbandonment()
            } else {
                handle(session.advance(to: clock))
            }
            if session.player.state.isTerminal, !hasPendingViewerStep {
                isFinished = true
            }
        }
    }

    private var hasPendingViewerStep: Bool {
        if case .failed = session.player.state { return false }
        for index in queueIndex..<queue.count {
            if case .step(.seek) = queue[index].kind { return true }
        }
        return false
    }

    /// Applies a viewer action now, at `clock` (an interactive session: keys and clicks rather than a
    /// script). `.pause(.infinity)` pauses until a later `.play`; network actions are ignored here, as the
    /// network is fixed when the engine is made.
    public mutating func perform(_ action: SimulationStep.Action) {
        guard !isFinished else { return }
        handle(session.advance(to: clock))
        switch action {
        case .seek(let offset):
            seek(to: offset)
        case .pause(let duration):
            record(.pause, value: duration.isFinite ? duration : nil)
            handle(session.pause(now: clock))
            if duration.isFinite {
                let resume = Scheduled(time: clock + duration, order: Int.max, kind: .resume)
                let index = queue[queueIndex...].firstIndex { ($0.time, $0.order) > (resume.time, resume.order) }
                queue.insert(resume, at: index ?? queue.count)
            }
        case .play:
            record(.play, value: nil)
            handle(session.play(now: clock))
        case .rate(let rate):
            record(.rate, value: rate)
            handle(session.setRate(rate, now: clock))
        case .bandwidth, .outage, .latency:
            break
        }
    }

    /// Seeks to `offset` seconds from the playable start, clamped to the media; the event shows the
    /// target on the same scale.
    private mutating func seek(to offset: Double) {
        let target = min(max(media.startTime + offset, media.startTime), media.endTime)
        record(.seek, value: session.presentationTime(target))
        handle(session.seek(to: target, now: clock))
    }

    // MARK: Script

    private mutating func performStep(_ scheduled: Scheduled) {
        switch scheduled.kind {
        case .resume:
            handle(session.advance(to: clock))
            record(.resume, value: nil)
            handle(session.play(now: clock))
        case .outageEnd:
            handle(session.advance(to: clock))
            record(.outageEnd, value: nil)
        case .step(let action):
            handle(session.advance(to: clock))
            switch action {
            case .bandwidth(let bitsPerSecond): record(.bandwidth, value: bitsPerSecond)
            case .outage(let duration): record(.outageStart, value: duration)
            case .latency(let latency): record(.latency, value: latency)
            case .seek(let offset):
                seek(to: offset)
            case .pause(let duration):
                record(.pause, value: duration)
                handle(session.pause(now: clock))
            case .rate(let rate):
                record(.rate, value: rate)
                handle(session.setRate(rate, now: clock))
            case .play:
                record(.play, value: nil)
                handle(session.play(now: clock))
            }
        }
    }

    // MARK: Player actions

    private mutating func handle(_ actions: [PlayerAction]) {
        for action in actions {
            switch action {
            case .startLoading(let from): startLoading(from: from)
            case .stopLoading: stopLoading()
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
    }

    /// Adds an event; `position` is a media time, shown from the playable start like every time a user sees.
    private mutating func record(_ kind: SimulationEvent.Kind, position: Double? = nil, value: Double?) {
        let mediaTime = position ?? session.player.currentTime
        events.append(
            SimulationEvent(time: clock, kind: kind, position: session.presentationTime(mediaTime), value: value))
    }

    // MARK: Downloader

    /// Unit `index` of the media, at the in-flight variant for a ladder.
    private mutating func unit(_ index: Int) -> SimulationMedia.Unit {
        guard !variantUnits.isEmpty else { return units.unit(index) }
        return variantUnits[inFlightVariant][index]
    }

    /// Asks the rule for the variant of segment `nextUnit`, before its request goes out.
    private mutating func chooseVariant() {
        guard var controller = abr else { return }
        let decision = controller.choose(
            buffer: session.player.item.bufferedAhead, segment: nextUnit, segmentCount: media.unitCount)
        abr = controller
        let chosen = min(max(decision.variant, 0), variantUnits.count - 1)
        if let lastVariant, lastVariant != chosen {
            switches.append(
                AbrSwitch(time: clock, segment: nextUnit, from: lastVariant, to: chosen, reason: decision.reason))
            record(.variantSwitch, value: ladder?.variants[chosen].bitRate)
        }
        lastVariant = chosen
        inFlightVariant = chosen
    }

    /// Drops the segment in flight for a lower variant when, at this request's rate so far, its bytes left
    /// would arrive after the buffer runs dry (see `init(ladder:...)`).
    private mutating func checkAbandonment() {
        handle(session.advance(to: clock))
        abandonCheck = clock + Self.abandonInterval
        guard isDownloading, inFlightVariant > 0, let snapshot = transferAtLastCompletion, !variantUnits.isEmpty,
            nextUnit < media.unitCount
        else {
            abandonCheck = .infinity
            return
        }
        let elapsed = clock - firstByteAt
        guard elapsed > 0 else { return }
        let arrived = snapshot.bits(deliveredBy: clock)
        let current = unit(nextUnit)
        let total = Double(current.byteEnd - requestOrigin) * 8
        let rate = arrived / elapsed
        let buffer = session.player.item.bufferedAhead
        let left = rate > 0 ? (total - arrived) / rate : .infinity
        guard left > buffer else { return }
        var lower = 0
        for candidate in stride(from: inFlightVariant - 1, through: 1, by: -1) {
            let bits = Double(variantUnits[candidate][nextUnit].byteEnd - variantUnits[candidate][nextUnit].byteStart) * 8
            if rate > 0, bits / rate <= buffer {
                lower = candidate
                break
            }
        }
        let from = inFlightVariant
        noteAbandonedBytes()
        if arrived.isFinite, arrived >= 8, arrived < 8e18 {
            abr?.recordDownload(bytes: Int64(arrived / 8), transfer: elapsed, latency: firstByteAt - requestSentAt)
        }
        let reason =
            "abandoned: \(Seconds((left * 1000).rounded() / 1000).description) left at \(BitRate(bitsPerSecond: rate).description) > \(Seconds((buffer * 1000).rounded() / 1000).description) buffered"
        switches.append(AbrSwitch(time: clock, segment: nextUnit, from: from, to: lower, reason: reason))
        record(.variantSwitch, value: ladder?.variants[lower].bitRate)
        inFlightVariant = lower
        lastVariant = lower
        abandonedRequests += 1
        requestSegment()
    }

    /// Books a whole segment handed to the player, and the throughput its request measured.
    private mutating func noteSegmentDelivered(_ index: Int, bytes: Int64) {
        guard abr != nil, deliveredVariants.indices.contains(index) else { return }
        deliveredVariants[index] = inFlightVariant
        deliveredPerVariant[inFlightVariant].segments += 1
        deliveredPerVariant[inFlightVariant].bytes += bytes
        abr?.recordDownload(bytes: bytes, transfer: clock - firstByteAt, latency: firstByteAt - requestSentAt)
    }

    /// Where the current request's data reaches in media time: loading from there continues it.
    private mutating func sequenceFrontier() -> Double {
        switch media.layout {
        case .segmented:
            return nextUnit < media.unitCount ? unit(nextUnit).start : media.endTime
        case .progressive:
            return max(sequenceStart, session.deliveredPlayableEnd)
        }
    }

    private mutating func startLoading(from position: Double) {
        let tolerance = TimeRanges.defaultTolerance
        // The request carries on only when the position needed is where its data has reached: earlier
        // data was delivered already (so it was evicted), later data is a jump. Once the last unit is in,
        // any new need is for evicted data. Each of those takes a new request.
        let continues = nextUnit < media.unitCount && abs(position - sequenceFrontier()) <= tolerance
        if continues {
            guard !isDownloading else { return }
            isDownloading = true
            if media.layout == .progressive, connectionOpen {
                // The open connection carries on from the bytes already here.
                transfer = NetworkModel.Transfer(shared: sharedNetwork, start: clock)
                transferAtLastCompletion = transfer
                requestOrigin = deliveredEnd
                pendingCompletion = nil
            } else if media.layout == .segmented {
                chooseVariant()
                requestSegment()
            } else {
                sendProgressiveRequest(from: deliveredEnd)
            }
            return
        }
        // A new position: abandon the current request and ask for the seek point's bytes.
        let unit = media.restartUnit(for: position)
        guard unit < media.unitCount else { return }
        if isDownloading { noteAbandonedBytes() }
        nextUnit = unit
        sequenceStart = position
        session.restartDelivery()
        isDownloading = true
        if media.layout == .segmented {
            abr?.noteSeek(segment: unit)
            chooseVariant()
        }
        let origin = self.unit(unit).byteStart
        deliveredEnd = origin
        record(.request, value: Double(origin))
        if media.layout == .segmented {
            requestSegment()
        } else {
            sendProgressiveRequest(from: origin)
        }
    }

    /// Sends the media request of a progressive file from `origin`, after the range requests for its head
    /// and index when those are not in yet.
    private mutating func sendProgressiveRequest(from origin: Int64) {
        guard let bytes = preludeFetches.first else {
            sendRequest(from: origin)
            return
        }
        preludeOrigin = origin
        requestPrelude(bytes: bytes)
    }

    /// Sends a range request for `bytes` of the head or the index; the engine treats it as it treats an
    /// initialization segment: nothing of it is playable, a part of it is of no use.
    private mutating func requestPrelude(bytes: Int64) {
        requests += 1
        connectionOpen = true
        fetchingInitialization = bytes
        abandonCheck = .infinity
        transfer = NetworkModel.Transfer(shared: sharedNetwork, start: clock + network.requestLatency(at: clock))
        transferAtLastCompletion = transfer
        pendingCompletion = nil
    }

    /// Requests segment `nextUnit` at the in-flight variant; the first time at a variant with an
    /// initialization segment, that segment is requested first (the segment follows when it is in).
    private mutating func requestSegment() {
        let variant = inFlightVariant
        guard initialized.indices.contains(variant), !initialized[variant] else {
            sendRequest(from: unit(nextUnit).byteStart)
            return
        }
        requests += 1
        connectionOpen = true
        fetchingInitialization = initializationBytes[variant]
        abandonCheck = .infinity
        transfer = NetworkModel.Transfer(shared: sharedNetwork, start: clock + network.requestLatency(at: clock))
        transferAtLastCompletion = transfer
        pendingCompletion = nil
    }

    private mutating func sendRequest(from origin: Int64) {
        requests += 1
        requestSentAt = clock
        connectionOpen = true
        requestOrigin = origin
        deliveredEnd = origin
        let firstByte = clock + network.requestLatency(at: clock)
        firstByteAt = firstByte
        abandonCheck = abandons && inFlightVariant > 0 ? firstByte + Self.abandonInterval : .infinity
        transfer = NetworkModel.Transfer(shared: sharedNetwork, start: firstByte)
        transferAtLastCompletion = transfer
        pendingCompletion = nil
    }

    private mutating func stopLoading() {
        guard isDownloading else { return }
        isDownloading = false
        abandonCheck = .infinity
        // Keep the bytes of the unit in flight; a progressive connection idles, a segment request ends,
        // and so does a range request for the head or index (it is sent again whole).
        let inPrelude = fetchingInitialization != nil
        noteAbandonedBytes()
        if media.layout == .segmented || inPrelude { connectionOpen = false }
    }

    private mutating func noteAbandonedBytes() {
        if let initialization = fetchingInitialization {
            // Part of an initialization segment is of no use: it is requested again whole.
            if let snapshot = transferAtLastCompletion {
                let delivered = min(snapshot.bits(deliveredBy: clock) / 8, Double(initialization))
                bytesReceived += delivered.isFinite && delivered > 0 ? Int64(delivered) : 0
            }
            fetchingInitialization = nil
            transfer = nil
            pendingCompletion = nil
            return
        }
        guard let snapshot = transferAtLastCompletion, nextUnit < media.unitCount else { return }
        // Bound the Double before converting: a long session on a fast trace can deliver more bits than
        // Int64 holds, and only the bytes up to the unit's end count.
        let unitEnd = unit(nextUnit).byteEnd
        let delivered = min(snapshot.bits(deliveredBy: clock) / 8, Double(max(0, unitEnd - requestOrigin)))
        let arrived = requestOrigin + (delivered.isFinite && delivered > 0 ? Int64(delivered) : 0)
        let reached = min(max(arrived, deliveredEnd), unitEnd)
        bytesReceived += reached - deliveredEnd
        deliveredEnd = reached
        transfer = nil
        pendingCompletion = nil
    }

    private mutating func completionTime() -> Double {
        if let pendingCompletion { return pendingCompletion }
        guard var current = transfer else { return .infinity }
        if let initialization = fetchingInitialization {
            transferAtLastCompletion = current
            let time = current.time(whenDelivered: Double(initialization) * 8)
            transfer = current
            pendingCompletion = time
            return time
        }
        let unit = self.unit(nextUnit)
        // Bytes already here (an index at the end brought everything before it) complete at once.
        guard neededEnd(for: unit) > deliveredEnd else {
            pendingCompletion = clock
            return clock
        }
        transferAtLastCompletion = current
        let bytes = max(neededEnd(for: unit) - requestOrigin, 0)
        let time = current.time(whenDelivered: Double(bytes) * 8)
        transfer = current
        pendingCompletion = time
        return time
    }

    /// The bytes that must be in for `unit`: its own end, or the index's end until the index has arrived.
    private func neededEnd(for unit: SimulationMedia.Unit) -> Int64 {
        indexArrived ? unit.byteEnd : max(unit.byteEnd, media.indexByteEnd)
    }

    private mutating func completeUnit() {
        if media.layout == .progressive, let bytes = fetchingInitialization {
            fetchingInitialization = nil
            pendingCompletion = nil
            bytesReceived += bytes
            if !preludeFetches.isEmpty { preludeFetches.removeFirst() }
            if let next = preludeFetches.first {
                requestPrelude(bytes: next)
            } else {
                // The head brought every byte before the first packet: the media request starts there.
                sendRequest(from: max(preludeOrigin, headEnd))
            }
            return
        }
        if let initialization = fetchingInitialization {
            fetchingInitialization = nil
            pendingCompletion = nil
            bytesReceived += initialization
            initialized[inFlightVariant] = true
            if deliveredPerVariant.indices.contains(inFlightVariant) {
                deliveredPerVariant[inFlightVariant].bytes += initialization
            }
            sendRequest(from: unit(nextUnit).byteStart)
            return
        }
        let unit = self.unit(nextUnit)
        let needed = neededEnd(for: unit)
        nextUnit += 1
        pendingCompletion = nil
        bytesReceived += max(needed - deliveredEnd, 0)
        deliveredEnd = max(deliveredEnd, needed)
        if needed >= media.indexByteEnd { indexArrived = true }
        switch media.layout {
        case .segmented:
            noteSegmentDelivered(nextUnit - 1, bytes: needed - unit.byteStart)
            handle(session.receive(TimeRange(start: unit.start, duration: unit.duration), now: clock))
            if nextUnit < media.unitCount, isDownloading {
                chooseVariant()
                requestSegment()
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
        }
        guard nextUnit >= media.unitCount else { return }
        isDownloading = false
        connectionOpen = false
        transfer = nil
        record(.downloadComplete, value: Double(bytesReceived))
        if !session.player.item.isLoadedThroughEnd, !announcedEndOfStream, !session.player.state.isTerminal {
            announcedEndOfStream = true
            handle(session.endOfStream(now: clock))
        }
    }
}
