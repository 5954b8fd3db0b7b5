/// Turns demuxed packets into loaded time ranges: per stream, and *playable* (the time a player could
/// actually present, where every stream it plays has data).
///
/// Each packet covers `[pts, pts + duration)` of presentation time. Packets may arrive in any order
/// (B-frames arrive in decode order, not presentation order); the union closes once the reordered frames
/// have arrived, and memory stays O(number of gaps) per stream, never O(packets).
///
/// Rules, in the order they apply to one packet:
/// - Time: `pts`, or `dts` when `pts` is unknown; a packet with neither is skipped.
/// - Duration: the packet's own when positive. When it is `nil` or 0, the most recent positive duration
///   seen on that stream; when none was ever seen, the stream's typical timestamp step, i.e. the smallest
///   positive difference between the timestamps of consecutive packets seen so far (with B-frames that is
///   still one frame). Until a stream has shown either, its undated packets wait in a small bounded list and
///   are placed as soon as the step is known.
/// - Merge tolerance: `TimeRanges.defaultTolerance` (0.1 s) unless given. See there for why.
public struct LoadedRangeTracker: Sendable {
    /// Undated packets waiting for a stream's step to become known; beyond this many, the oldest is dropped
    /// (only a stream that sends a long run of packets with one identical timestamp and no duration gets here).
    static let maxPendingPackets = 64

    /// The streams a player would play (chosen by the caller, e.g. best video and best audio).
    public let playableStreams: [Int]
    /// The merge tolerance in seconds applied to every stream's ranges.
    public let tolerance: Double
    // Parallel arrays searched linearly: a container has a handful of streams, and this beats hashing
    // the stream index for every packet.
    private var streamIndices: [Int] = []
    private var streamStates: [StreamState] = []

    /// Creates a tracker for a player that plays `playableStreams`; every other stream is still tracked
    /// for `ranges(forStream:)` but does not limit `playable`. An empty list means every stream seen plays.
    public init(playableStreams: [Int], tolerance: Double = TimeRanges.defaultTolerance) {
        self.playableStreams = playableStreams
        self.tolerance = tolerance
    }

    /// Records the presentation time `packet` covers.
    public mutating func add(_ packet: MediaPacket) {
        guard let time = packet.pts ?? packet.dts, time.isFinite else { return }
        let slot: Int
        if let found = streamIndices.firstIndex(of: packet.stream) {
            slot = found
        } else {
            slot = streamIndices.count
            streamIndices.append(packet.stream)
            streamStates.append(StreamState(tolerance: tolerance))
        }
        streamStates[slot].add(time: time, duration: packet.duration)
    }

    /// The time loaded for one stream; empty for a stream never seen.
    public func ranges(forStream stream: Int) -> TimeRanges {
        guard let slot = streamIndices.firstIndex(of: stream) else { return TimeRanges(tolerance: tolerance) }
        // Read in place: the array's subscript would copy the whole stream state (two arrays) per call.
        return streamStates.withUnsafeBufferPointer { $0[slot].ranges }
    }

    /// The range of `stream` holding `time`, else the first one starting after it; `nil` for neither (or a
    /// stream never seen). As `ranges(forStream:)` then `range(containing:) ?? firstRange(startingAtOrAfter:)`,
    /// without copying the ranges: a per-packet driver asks this for every packet.
    func range(ofStream stream: Int, holdingOrAfter time: Double) -> TimeRange? {
        guard let slot = streamIndices.firstIndex(of: stream) else { return nil }
        return streamStates.withUnsafeBufferPointer {
            $0[slot].ranges.range(containing: time) ?? $0[slot].ranges.firstRange(startingAtOrAfter: time)
        }
    }

    /// The streams that have delivered at least one packet, in ascending order.
    public var seenStreams: [Int] { streamIndices.sorted() }

    /// The time a player could present: the intersection of the playable streams' ranges (a single
    /// playable stream's own ranges). Empty while any playable stream has no data.
    public var playable: TimeRanges {
        let chosen = playableStreams.isEmpty ? seenStreams : playableStreams
        guard let first = chosen.first else { return TimeRanges(tolerance: tolerance) }
        var result = ranges(forStream: first)
        for stream in chosen.dropFirst() { result = result.intersection(ranges(forStream: stream)) }
        return result
    }
}

/// What the tracker keeps per stream: the ranges plus the little it needs to infer missing durations.
private struct StreamState: Sendable {
    var ranges: TimeRanges
    /// The most recent positive packet duration.
    var lastDuration: Double?
    /// The previous packet's time, to learn the timestamp step.
    var lastTime: Double?
    /// The smallest positive step between consecutive packets' times.
    var minStep: Double?
    /// Times of packets whose duration could not be inferred yet.
    var pending: [Double] = []

    init(tolerance: Double) {
        ranges = TimeRanges(tolerance: tolerance)
    }

    mutating func add(time: Double, duration: Double?) {
        if let lastTime {
            let step = abs(time - lastTime)
            // Sub-microsecond steps are timestamp noise (duplicated or re-rounded times), not a frame step.
            if step > 1e-6, step < (minStep ?? .infinity) { minStep = step }
        }
        lastTime = time
        if let duration, duration > 0, duration.isFinite {
            lastDuration = duration
        }
        let known = (duration.map { $0 > 0 && $0.isFinite } ?? false) ? duration : (lastDuration ?? minStep)
        guard let length = known else {
            if pending.count == LoadedRangeTracker.maxPendingPackets { pending.removeFirst() }
            pending.append(time)
            return
        }
        if !pending.isEmpty {
            for start in pending { ranges.insert(start: start, end: start + length) }
            pending.removeAll()
        }
        ranges.insert(start: time, end: time + length)
    }
}
