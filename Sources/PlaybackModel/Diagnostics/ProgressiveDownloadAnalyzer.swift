/// Feeds a progressive file's packets, in the order they are read, into `ProgressiveDownloadNeeds` for
/// one or more `DownloadLayout`s, working out each packet's byte end and its presentation time relative to
/// the playable start on the way.
///
/// - Byte end: `position + size`; a packet without a position is placed right after the previous one.
///   Every stream's bytes count (they are downloaded too), but only the played streams' packets have a
///   deadline.
/// - Playable start (time 0 of the needs): the first instant every played stream has data, i.e. the
///   largest of the played streams' earliest times, as `LoadedRangeTracker.playable` starts. It is known
///   for sure only at the end, so the first packets wait in a bounded list until every played stream has
///   delivered data reaching `settleSpan` past it (B-frame reordering and priming settle well within it);
///   from then on each packet goes straight into the running maxima. Memory: that list, then O(1).
///   A packet that later turns out to start earlier is clamped to the start and `originMoved` is set.
public struct ProgressiveDownloadAnalyzer: Sendable {
    /// Seconds of data every played stream must show past the provisional start before it is fixed.
    public static let settleSpan = 1.0
    /// Packets held before the start is fixed anyway (a file that delivers one stream long before the other).
    public static let maxPending = 65_536

    /// The streams a player plays; empty means every stream seen.
    public let playableStreams: [Int]
    /// The layouts, in the order given; `needs[i]` belongs to `layouts[i]`.
    public let layouts: [DownloadLayout]
    /// The tables, one per layout.
    public private(set) var needs: [ProgressiveDownloadNeeds]
    /// The playable start used as time 0, once fixed.
    public private(set) var timeOrigin: Double?
    /// Whether a played stream delivered data before `timeOrigin` after it was fixed (figures then
    /// slightly optimistic for the first packets).
    public private(set) var originMoved = false
    /// Largest byte end seen.
    public private(set) var bytesRead: Int64 = 0

    // Indexed by stream (indices are small and dense): +infinity / -infinity mean "no data yet". Arrays,
    // not dictionaries: this runs for every packet, and hashing showed in the profile.
    private var earliest: [Double] = []
    private var latest: [Double] = []
    private var pending: [(byteEnd: Int64, time: Double)] = []

    /// Creates an analyzer for the played streams and the layouts to compare, with the needs tables given.
    public init(
        playableStreams: [Int], layouts: [DownloadLayout], startupDelays: [Double], bandwidths: [Double],
        latency: Double = 0
    ) {
        self.playableStreams = playableStreams
        self.layouts = layouts
        needs = layouts.map { _ in
            ProgressiveDownloadNeeds(startupDelays: startupDelays, bandwidths: bandwidths, latency: latency)
        }
    }

    /// Adds the next packet in read order.
    public mutating func add(_ packet: MediaPacket) {
        let byteEnd = (packet.position ?? bytesRead) + Int64(packet.size)
        bytesRead = max(bytesRead, byteEnd)
        guard playableStreams.isEmpty || playableStreams.contains(packet.stream),
            let time = packet.pts ?? packet.dts, time.isFinite
        else { return }
        let stream = packet.stream
        if stream >= earliest.count, stream >= 0 {
            earliest.append(contentsOf: repeatElement(.infinity, count: stream + 1 - earliest.count))
            latest.append(contentsOf: repeatElement(-.infinity, count: stream + 1 - latest.count))
        }
        if stream >= 0 {
            // Stores only when the figure moves: most packets change neither.
            if time < earliest[stream] { earliest[stream] = time }
            let end = time + max(packet.duration ?? 0, 0)
            if end > latest[stream] { latest[stream] = end }
        }
        if let timeOrigin {
            if time < timeOrigin, let start = playableStart, start < timeOrigin { originMoved = true }
            feed(byteEnd: byteEnd, time: time, origin: timeOrigin)
            return
        }
        pending.append((byteEnd, time))
        if let start = playableStart, isSettled(start) || pending.count >= Self.maxPending { fix(start) }
    }

    /// Fixes the start with what was seen, if it is not fixed yet; call once after the last packet.
    public mutating func finish() {
        if timeOrigin == nil, let start = playableStart ?? earliest.filter(\.isFinite).max() { fix(start) }
    }

    // The largest of the played streams' earliest times, once every played stream has data.
    private var playableStart: Double? {
        if playableStreams.isEmpty { return earliest.filter(\.isFinite).max() }
        var start = -Double.infinity
        for stream in playableStreams {
            guard stream >= 0, stream < earliest.count, earliest[stream].isFinite else { return nil }
            start = max(start, earliest[stream])
        }
        return start
    }

    private func isSettled(_ start: Double) -> Bool {
        let streams = playableStreams.isEmpty ? latest.indices.filter { latest[$0].isFinite } : playableStreams
        return streams.allSatisfy { $0 >= 0 && $0 < latest.count && latest[$0] >= start + Self.settleSpan }
    }

    private mutating func fix(_ start: Double) {
        timeOrigin = start
        for item in pending { feed(byteEnd: item.byteEnd, time: item.time, origin: start) }
        pending = []
    }

    private mutating func feed(byteEnd: Int64, time: Double, origin: Double) {
        layouts.withUnsafeBufferPointer { layouts in
            needs.withUnsafeMutableBufferPointer { needs in
                for index in layouts.indices {
                    needs[index].add(
                        byteEnd: layouts[index].bytesNeeded(forByteEnd: byteEnd), presentationTime: time - origin,
                        requests: layouts[index].requests)
                }
            }
        }
    }
}
