/// The decisions of an LL-HLS player part by part (RFC 8216bis), as a pure machine: given the playlist read
/// first and the hold-back, it says what to do next (fetch the map, fetch a part or a whole segment,
/// reload the playlist blocking for a part, wait until a time on the caller's clock, stop) and is told how
/// each fetch and reload went. It does no I/O and reads no clock: `LowLatencyHLSClient` is the thin loop
/// that does what it says, so the rules (where to start, when to ask for a delta update, how long to wait
/// after an answer without the part or a failed reload, when to give up) are tested in virtual time.
public struct LowLatencyPartScheduler: Sendable {
    /// What the client does next.
    public enum Step: Sendable, Equatable {
        /// Fetch the media initialization section (`#EXT-X-MAP`), then call `fetched(_:)`.
        case fetchMap(HLSPlaylist.Map)
        /// Fetch the part and append it, then call `fetched(_:)`; `wholeSegment` when it is a segment no
        /// longer listed by parts, fetched whole to catch up.
        case fetchPart(HLSPlaylist.Part, wholeSegment: Bool)
        /// Reload the playlist, blocking for the part asked when given (`_HLS_msn`, `_HLS_part`,
        /// `_HLS_skip`), then call `reloaded(_:at:ending:)`.
        case reload(asking: LowLatencyHLSClient.Request?)
        /// Wait until this time (the caller's seconds), then ask again.
        case wait(until: Double)
        /// Stop: a fetch failed, reloads failed too often, or the window left no part to restart at.
        case stop
    }

    /// The playlist read before the client started, and the seconds behind the newest listed part to start.
    private let first: HLSPlaylist
    private let holdBack: Double
    /// The newest full playlist loaded, and the map last fetched.
    private var playlist: HLSPlaylist
    private var mapFetched: HLSPlaylist.Map?
    /// The next part to play: part `index` of segment `sequence`.
    private var sequence: Int
    private var index: Int
    /// Blocking reloads asked so far (every `LowLatencyHLSClient.deltaEvery`th asks for a delta update),
    /// and how many failed in a row.
    private var reloads = 0
    private var failedReloads = 0
    /// The step given and not answered yet, a wait decided by the last answer, and whether it is over.
    private var pending: Step?
    private var waitUntil: Double?
    private var stopped = false

    /// The part to start at, and how far behind the newest listed media it is (seconds, when the part is
    /// listed by parts); `nil` when `first` lists no part to start at (then the scheduler only stops).
    public let start: (part: HLSPlaylist.Part, behindEdge: Double?)?

    /// A scheduler starting in `first` (the playlist read before) `holdBack` seconds behind its newest part
    /// (`LowLatencyHLSClient.startPart(in:holdBack:)`).
    public init(first: HLSPlaylist, holdBack: Double) {
        self.first = first
        self.holdBack = holdBack
        playlist = first
        if let part = LowLatencyHLSClient.startPart(in: first, holdBack: holdBack) {
            let parts = first.allParts
            start = (part, parts.firstIndex(of: part).map { parts[$0...].reduce(0) { $0 + $1.duration } })
            (sequence, index) = (part.sequence, part.index)
        } else {
            start = nil
            (sequence, index) = (0, 0)
            stopped = true
        }
    }

    /// What to do next.
    public mutating func next() -> Step {
        if let waitUntil {
            self.waitUntil = nil
            return .wait(until: waitUntil)
        }
        while !stopped {
            switch LowLatencyHLSClient.find(sequence: sequence, index: index, in: playlist) {
            case .part(let part):
                if part.map != mapFetched, let map = part.map { return ask(.fetchMap(map)) }
                if !part.gap { return ask(.fetchPart(part, wholeSegment: false)) }
                (sequence, index) = (part.sequence, part.index + 1)
            case .segment(let segment):
                if segment.map != mapFetched, let map = segment.map { return ask(.fetchMap(map)) }
                return ask(.fetchPart(
                    HLSPlaylist.Part(
                        uri: segment.uri, duration: segment.duration, independent: false, byteRange: segment.byteRange, gap: false,
                        sequence: segment.sequence, index: 0, programDateTime: segment.programDateTime, map: segment.map),
                    wholeSegment: true))
            case nil:
                if sequence < playlist.mediaSequence + playlist.skippedSegments, !playlist.isDeltaUpdate {
                    // Fell out of the window: start again from the edge, as a player that fell behind does.
                    guard let restart = LowLatencyHLSClient.startPart(in: playlist, holdBack: holdBack) else {
                        stopped = true
                        break
                    }
                    (sequence, index) = (restart.sequence, restart.index)
                    continue
                }
                reloads += 1
                let skip = first.canSkipUntil != nil && reloads % LowLatencyHLSClient.deltaEvery == 0
                let asked = LowLatencyHLSClient.Request(sequence: sequence, part: index, skip: skip)
                return ask(.reload(asking: playlist.canBlockReload ? asked : nil))
            }
        }
        return .stop
    }

    /// The map or part `next` gave was fetched (`true`) or failed (`false`, after the client said why):
    /// on to what follows it, or stop.
    public mutating func fetched(_ succeeded: Bool) {
        guard let step = pending else { return }
        pending = nil
        guard succeeded else {
            stopped = true
            return
        }
        switch step {
        case .fetchMap(let map): mapFetched = map
        case .fetchPart(let part, true): (sequence, index) = (part.sequence + 1, 0)
        case .fetchPart(let part, false): (sequence, index) = (part.sequence, part.index + 1)
        case .reload, .wait, .stop: break
        }
    }

    /// The reload `next` gave loaded `loaded` at `now`, or failed (`nil`, after the client said why); `ending`
    /// when the failure is the end of the check. A 503 after a long hold, a dropped connection: players retry
    /// after a while, and `LowLatencyHLSClient.reloadAttempts` failures in a row end it. A delta update is
    /// judged by the caller, not followed (its numbering may be wrong: that is what is checked; the next
    /// reload asks for a full playlist). An answer without the part (the server ignores blocking reloads, or
    /// the client is ahead) is polled again every half part target, as players fall back to.
    public mutating func reloaded(_ loaded: HLSPlaylist?, at now: Double, ending: Bool = false) {
        guard case .reload = pending else { return }
        pending = nil
        guard let loaded else {
            failedReloads += 1
            if failedReloads >= LowLatencyHLSClient.reloadAttempts || ending {
                stopped = true
            } else {
                waitUntil = now + max(0.05, min(1, playlist.partTarget ?? 1))
            }
            return
        }
        failedReloads = 0
        if loaded.isDeltaUpdate { return }
        playlist = loaded
        if LowLatencyHLSClient.find(sequence: sequence, index: index, in: playlist) == nil {
            waitUntil = now + max(0.05, min(1, (playlist.partTarget ?? 1) / 2))
        }
    }

    private mutating func ask(_ step: Step) -> Step {
        pending = step
        return step
    }
}
