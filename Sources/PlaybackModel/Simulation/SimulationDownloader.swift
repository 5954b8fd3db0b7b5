/// The simulated downloader of `SimulationEngine`: which request is in flight, when the unit it brings
/// arrives, and the bytes received. It knows nothing of the player; the engine tells it to start, stop and
/// move, and hands the units it completes to the session (the download rules are on `SimulationEngine`).
///
/// The request in flight's data is one stored value (`fetch`), valid while the state is `fetching` or
/// `delivering` and changed in place: a packet of a progressive file moves it on without copying it out of
/// an enum payload and back (two transfers, each holding the network by reference, per copy). The time its
/// unit completes is worked out when the request is made or moves on to its next unit, so every question
/// the engine asks of it (`completionTime`, `abandonCheckTime`) is a plain read.
struct SimulationDownloader: Sendable {
    let media: SimulationMedia
    /// The track whose requests this downloader sends (the request log's `track`).
    let track: SimulationRequest.Track
    /// The network every transfer runs on.
    private let network: NetworkModel.Shared
    /// The media's units, read one at a time (synthetic media is generated as the download reaches it).
    private var units: SimulationMedia.UnitReader
    /// Per variant (ascending), its units; empty without a ladder.
    let variantUnits: [[SimulationMedia.Unit]]
    /// Seconds after a media request's first byte of its first abandonment check, for a variant above the
    /// lowest; `nil` while requests are not abandoned.
    var abandonDelay: Double?
    /// Whether each media request keeps its flows (`stretches`) for `arrivalCurve(until:)`: on for a player
    /// model that reads the curve (`PlayerAbrModel.needsArrival`), off otherwise (nothing kept).
    var recordsArrival = false
    /// The media request in flight's flows, each from the session time it took over: the first from the
    /// first byte, then one each time the link's share changed (`share(_:at:)`). Kept only with
    /// `recordsArrival`.
    var stretches: [(from: Double, flow: NetworkModel.Transfer)] = []
    /// Per variant (one entry without a ladder), its initialization segment's bytes (0: none).
    private let initializationBytes: [Int64]
    /// Per variant, whether its initialization segment has arrived (or it has none).
    private var initialized: [Bool]
    /// Range requests of a file whose index follows the media still to make before its media: the head's
    /// bytes, then the index's (empty once both are in, and for every other file).
    private var preludeFetches: [Int64]
    /// Where the media request goes once the prelude is in.
    private var preludeOrigin: Int64 = 0
    /// The first packet's byte offset: the head request brings every byte before it.
    private let headEnd: Int64
    /// Whether the index has arrived (or the file needs none first).
    private var indexArrived = false

    /// What the connection is doing (set by this type's methods only, some in its extensions).
    var state: State = .idle
    /// The request in flight (or whose unit is being handed over): meaningful only while `state` is
    /// `fetching` or `delivering`, and changed in place.
    var fetch: Fetch
    /// Session time at which the unit in flight arrives; `infinity` with none in flight.
    var completionTime: Double { state == .fetching ? fetch.completion : .infinity }
    /// Session time of the next abandonment check of the segment in flight; `infinity` for none.
    var abandonCheckTime: Double { state == .fetching ? fetch.abandonCheck : .infinity }
    /// The variant whose segments are requested (ascending ladder index; 0 without a ladder).
    var variant = 0
    /// The unit being or next to be downloaded; `media.unitCount` once all are in.
    private(set) var nextUnit = 0
    /// The end of the units delivered in this sequence: below it, a request replaces a buffered copy.
    private(set) var deliveredUnitEnd = 0
    /// Where the current sequence of units started, in media time (a seek's target).
    private var sequenceStart: Double
    /// The byte every unit up to `nextUnit` has arrived to, counted from the resource's start.
    private var deliveredEnd: Int64 = 0
    /// Bytes received so far (abandoned requests' bytes that arrived too; booked by `book(_:at:)` only).
    var bytesReceived: Int64 = 0
    /// Requests sent so far.
    private(set) var requests = 0
    /// Every request sent, in order (`SimulationRequest`; written by `openEntry` and `closeEntry` only),
    /// the open one's bytes and end as of its opening: `log` brings them up to date.
    var entries: [SimulationRequest] = []
    /// The entry of `entries` of the request whose bytes are arriving (or whose progressive connection
    /// idles open), if any.
    var openEntry: Int?
    /// The open request's bytes and its latest byte's time (two stores per packet), into `entries` at close.
    var openBytes: Int64 = 0, openEnd: Double?

    /// A downloader of `media` (or, with `variantUnits`, of the ladder's variants) over `network`.
    init(
        media: SimulationMedia, network: NetworkModel, variantUnits: [[SimulationMedia.Unit]],
        initializationBytes: [Int64], track: SimulationRequest.Track = .video
    ) {
        self.media = media
        self.track = track
        let shared = NetworkModel.Shared(network)
        self.network = shared
        let none = NetworkModel.Transfer(shared: shared, start: 0)
        fetch = Fetch(
            purpose: .media(origin: 0), flow: none, sample: none, completion: .infinity, sentAt: 0, firstByteAt: 0,
            abandonCheck: .infinity, flowStart: 0)
        self.variantUnits = variantUnits
        self.initializationBytes = initializationBytes
        initialized = initializationBytes.map { $0 <= 0 }
        var units = media.makeReader()
        if media.layout == .progressive, media.download.fetchesIndexByRange, media.unitCount > 0 {
            headEnd = max(units.unit(0).byteStart, 0)
            preludeFetches = [headEnd, media.download.extraBytes]
        } else {
            headEnd = 0
            preludeFetches = []
        }
        self.units = units
        sequenceStart = media.startTime
    }

    // MARK: Queries

    /// Unit `index` of the media, at `variant` for a ladder.
    mutating func unit(_ index: Int) -> SimulationMedia.Unit {
        guard !variantUnits.isEmpty else { return units.unit(index) }
        return variantUnits[variant][index]
    }

    /// Whether loading from `position` goes on with the current sequence of units: the position is where
    /// its data has reached (within the merge tolerance), `deliveredPlayableEnd` being the session's. Earlier
    /// data was delivered already (so it was evicted), later data is a jump; once the last unit is in, any
    /// new need is for evicted data.
    mutating func continues(from position: Double, deliveredPlayableEnd: Double) -> Bool {
        guard nextUnit < media.unitCount else { return false }
        let frontier: Double
        switch media.layout {
        case .segmented: frontier = self.frontier()
        case .progressive: frontier = max(sequenceStart, deliveredPlayableEnd)
        }
        return abs(position - frontier) <= TimeRanges.defaultTolerance
    }

    // MARK: Requests

    /// Goes on with the current sequence of progressive units: on the open connection at once, else with a
    /// new request from the bytes already here.
    mutating func resume(at now: Double) {
        guard case .open = state else {
            sendProgressiveRequest(from: deliveredEnd, at: now)
            return
        }
        // Field by field in place (the same values as a new `Fetch`): this runs once per refill, so for every
        // packet of a long file whose buffer sits at the target.
        let transfer = NetworkModel.Transfer(shared: network, start: now)
        fetch.purpose = .media(origin: deliveredEnd)
        fetch.flow = transfer
        fetch.sample = transfer
        fetch.completion = .infinity
        fetch.sentAt = now
        fetch.firstByteAt = now
        fetch.abandonCheck = .infinity
        fetch.flowStart = now
        scheduleCompletion(at: now)
        state = .fetching
    }

    /// Drops the request in flight (the bytes that came count) and makes playing from `position` start at
    /// `unit`; the next request goes out with `requestFromNextUnit(at:)`.
    mutating func move(to unit: Int, position: Double, at now: Double) {
        if isLoading { noteAbandonedBytes(at: now) }
        closeEntry(abandoned: true)
        nextUnit = unit
        deliveredUnitEnd = unit
        sequenceStart = position
        state = .idle
    }

    /// The next request goes back to delivered segment `unit` to replace its copy (none in flight).
    mutating func replace(from unit: Int) { nextUnit = min(unit, nextUnit) }

    /// Sends the request for `nextUnit` after a `move`; returns the unit's first byte.
    mutating func requestFromNextUnit(at now: Double) -> Int64 {
        let origin = unit(nextUnit).byteStart
        deliveredEnd = origin
        if media.layout == .segmented {
            requestSegment(at: now)
        } else {
            sendProgressiveRequest(from: origin, at: now)
        }
        return origin
    }

    /// Requests segment `nextUnit` at `variant`; the first time at a variant with an initialization
    /// segment, that segment is requested first (the segment follows when it is in).
    mutating func requestSegment(at now: Double) {
        guard initialized.indices.contains(variant), !initialized[variant] else {
            sendRequest(from: unit(nextUnit).byteStart, at: now)
            return
        }
        sendPrelude(bytes: initializationBytes[variant], at: now)
    }

    /// Loading stops: the bytes of the unit in flight stay; a progressive connection idles open, a segment
    /// request ends, and so does a range request for the head or index (it is sent again whole).
    mutating func stop(at now: Double) {
        guard isLoading else { return }
        var inPrelude = false
        if case .prelude = fetch.purpose { inPrelude = true }
        noteAbandonedBytes(at: now)
        state = media.layout == .segmented || inPrelude ? .idle : .open
        if case .idle = state { closeEntry(abandoned: true) }
    }

    /// The segment in flight is dropped (the bytes that came count); a new request follows.
    mutating func abandon(at now: Double) {
        noteAbandonedBytes(at: now)
        state = .idle
        closeEntry(abandoned: true)
    }

    /// The segment in flight as the abandonment rule sees it at `now`, with its next check moved to
    /// `nextCheck`; `nil`, with no further check, when no media request above the lowest variant is in
    /// flight.
    mutating func abandonmentProgress(at now: Double, nextCheck: Double) -> Progress? {
        guard state == .fetching, case .media(let origin) = fetch.purpose else { return nil }
        guard variant > 0, !variantUnits.isEmpty, nextUnit < media.unitCount else {
            fetch.abandonCheck = .infinity
            return nil
        }
        fetch.abandonCheck = nextCheck
        return Progress(
            arrivedBits: fetch.sample.bits(deliveredBy: now), elapsed: now - fetch.firstByteAt,
            requestBits: Double(unit(nextUnit).byteEnd - origin) * 8, latency: fetch.firstByteAt - fetch.sentAt)
    }

    // MARK: Arrivals

    /// The unit (or prelude) in flight has arrived, at `now` (its `completionTime`).
    mutating func complete(at now: Double) -> Arrival? {
        guard state == .fetching else { return nil }
        if case .prelude(let bytes) = fetch.purpose {
            book(bytes, at: now)
            closeEntry(abandoned: false)
            if media.layout == .progressive {
                if !preludeFetches.isEmpty { preludeFetches.removeFirst() }
                if let next = preludeFetches.first {
                    sendPrelude(bytes: next, at: now)
                } else {
                    // The head brought every byte before the first packet: the media request starts there.
                    sendRequest(from: max(preludeOrigin, headEnd), at: now)
                }
                return .prelude
            }
            initialized[variant] = true
            sendRequest(from: unit(nextUnit).byteStart, at: now)
            return .initialization(variant: variant, bytes: bytes)
        }
        let index = nextUnit
        let arrived = unit(index)
        let needed = neededEnd(for: arrived)
        nextUnit += 1
        deliveredUnitEnd = max(deliveredUnitEnd, nextUnit)
        book(max(needed - deliveredEnd, 0), at: now)
        deliveredEnd = max(deliveredEnd, needed)
        if media.layout == .segmented { closeEntry(abandoned: false) }
        if needed >= media.indexByteEnd { indexArrived = true }
        state = .delivering
        return .unit(
            index: index, unit: arrived, bytes: needed - arrived.byteStart, transfer: now - fetch.firstByteAt,
            latency: fetch.firstByteAt - fetch.sentAt)
    }

    /// After a progressive unit was handed over: the request goes on to the next unit, if any.
    mutating func continueAfterDelivery(at now: Double) {
        guard state == .delivering, media.layout == .progressive, nextUnit < media.unitCount else { return }
        scheduleCompletion(at: now)
        state = .fetching
    }

    /// Every unit is in: the connection closes.
    mutating func finish() {
        state = .idle
        closeEntry(abandoned: false)
    }

    // MARK: Machinery

    /// Sends the media request of a progressive file from `origin`, after the range requests for its head
    /// and index when those are not in yet.
    private mutating func sendProgressiveRequest(from origin: Int64, at now: Double) {
        guard let bytes = preludeFetches.first else {
            sendRequest(from: origin, at: now)
            return
        }
        preludeOrigin = origin
        sendPrelude(bytes: bytes, at: now)
    }

    /// Sends a request for `bytes` of a head, an index or an initialization segment: nothing of it is
    /// playable, a part of it is of no use.
    private mutating func sendPrelude(bytes: Int64, at now: Double) {
        requests += 1
        let kind: SimulationRequest.Kind =
            media.layout == .segmented ? .initialization : preludeFetches.count > 1 ? .fileHead : .fileIndex
        let sent = sendTime(now)
        openEntry(kind, segment: nil, at: sent)
        let flowStart = sent + network.network.requestLatency(at: sent)
        let transfer = NetworkModel.Transfer(shared: network, start: flowStart)
        fetch = Fetch(
            purpose: .prelude(bytes: bytes), flow: transfer, sample: transfer, completion: .infinity, sentAt: sent,
            firstByteAt: sent, abandonCheck: .infinity, flowStart: flowStart)
        scheduleCompletion(at: now)
        state = .fetching
    }

    /// Sends a request for media units from byte `origin`.
    private mutating func sendRequest(from origin: Int64, at now: Double) {
        requests += 1
        let sent = sendTime(now)
        if media.layout == .segmented {
            openEntry(nextUnit < deliveredUnitEnd ? .replacement : .segment, segment: nextUnit, at: sent)
        } else {
            openEntry(.file, segment: nil, at: sent)
        }
        deliveredEnd = origin
        let firstByte = sent + network.network.requestLatency(at: sent)
        let check = abandonDelay.map { variant > 0 ? firstByte + $0 : .infinity } ?? .infinity
        let transfer = NetworkModel.Transfer(shared: network, start: firstByte)
        if recordsArrival { stretches = [(firstByte, transfer)] }
        fetch = Fetch(
            purpose: .media(origin: origin), flow: transfer, sample: transfer, completion: .infinity, sentAt: sent,
            firstByteAt: firstByte, abandonCheck: check, flowStart: firstByte)
        scheduleCompletion(at: now)
        state = .fetching
    }

    /// When a request asked for at `now` goes out: not before the player's start (`requestsHeldUntil`).
    private func sendTime(_ now: Double) -> Double { max(now, network.network.requestsHeldUntil) }

    /// Works out when `fetch`'s unit (or prelude) arrives, walking its flow on from the last completion.
    mutating func scheduleCompletion(at now: Double) {
        switch fetch.purpose {
        case .prelude(let bytes):
            fetch.sample = fetch.flow
            fetch.completion = fetch.flow.time(whenDelivered: Double(bytes) * 8)
        case .media(let origin):
            let needed = neededEnd(for: unit(nextUnit))
            // Bytes already here (an index at the end brought everything before it) complete at once.
            guard needed > deliveredEnd else {
                fetch.completion = now
                return
            }
            fetch.sample = fetch.flow
            fetch.completion = fetch.flow.time(whenDelivered: Double(max(needed - origin, 0)) * 8)
        }
    }

    /// The bytes that must be in for `unit`: its own end, or the index's end until the index has arrived.
    private func neededEnd(for unit: SimulationMedia.Unit) -> Int64 {
        indexArrived ? unit.byteEnd : max(unit.byteEnd, media.indexByteEnd)
    }

    /// Books the bytes of the request in flight that arrived by `now`.
    private mutating func noteAbandonedBytes(at now: Double) {
        guard isLoading else { return }
        switch fetch.purpose {
        case .prelude(let bytes):
            // Part of a head, an index or an initialization segment is of no use: it is requested again whole.
            let delivered = min(fetch.sample.bits(deliveredBy: now) / 8, Double(bytes))
            book(delivered.isFinite && delivered > 0 ? Int64(delivered) : 0, at: now)
        case .media(let origin):
            guard nextUnit < media.unitCount else { return }
            // Bound the Double before converting: a long session on a fast trace can deliver more bits than
            // Int64 holds, and only the bytes up to the unit's end count.
            let unitEnd = unit(nextUnit).byteEnd
            let delivered = min(fetch.sample.bits(deliveredBy: now) / 8, Double(max(0, unitEnd - origin)))
            let arrived = origin + (delivered.isFinite && delivered > 0 ? Int64(delivered) : 0)
            let reached = min(max(arrived, deliveredEnd), unitEnd)
            book(reached - deliveredEnd, at: now)
            deliveredEnd = reached
        }
    }
}
