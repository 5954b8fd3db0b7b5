/// How badly two streams (video and audio) are interleaved: the largest distance, in presentation time
/// and in bytes, between them at the same presentation time in file order. A player must download (and
/// hold) everything between the two, so a large skew forces it to buffer far ahead.
///
/// For every packet of one stream, ending at presentation time `t` and byte `e`, when the other stream's
/// data already reached `t`: the seconds skew is how far past `t` the other stream had got, the bytes
/// skew is `e` minus the byte end of the other stream's packet that first reached `t`. Packets arrive in
/// read order; "reached" is the largest `pts + duration` so far. Memory holds the other stream's packets
/// ahead of this one (as many as the skew spans), never the whole file.
public struct InterleaveSkew: Sendable {
    /// The two streams compared.
    public let streams: (first: Int, second: Int)
    /// Largest seconds skew seen.
    public private(set) var maxSkewSeconds = 0.0
    /// Largest bytes skew seen.
    public private(set) var maxSkewBytes: Int64 = 0

    private var reached: [Double?] = [nil, nil]
    // Per stream, (reached time, byte end) each time its reach grew, oldest first, from `heads[i]` on.
    private var history: [[(time: Double, byteEnd: Int64)]] = [[], []]
    private var heads = [0, 0]
    private var bytesRead: Int64 = 0

    /// Compares `first` and `second` (stream indices).
    public init(first: Int, second: Int) { streams = (first, second) }

    /// Adds the next packet in read order; packets of other streams only advance the byte count.
    public mutating func add(_ packet: MediaPacket) {
        let byteEnd = (packet.position ?? bytesRead) + Int64(packet.size)
        bytesRead = max(bytesRead, byteEnd)
        let side: Int
        if packet.stream == streams.first { side = 0 } else if packet.stream == streams.second { side = 1 } else { return }
        guard let start = packet.pts ?? packet.dts, start.isFinite else { return }
        let end = start + max(packet.duration ?? 0, 0)
        let other = 1 - side
        if let otherReach = reached[other], otherReach >= end {
            maxSkewSeconds = max(maxSkewSeconds, otherReach - end)
            // The first entry of the other stream that reached `end`: entries are in increasing time.
            var low = heads[other]
            var high = history[other].count
            while low < high {
                let middle = (low + high) / 2
                if history[other][middle].time >= end { high = middle } else { low = middle + 1 }
            }
            if low < history[other].count {
                maxSkewBytes = max(maxSkewBytes, byteEnd - history[other][low].byteEnd)
            }
        }
        if end > (reached[side] ?? -.infinity) {
            reached[side] = end
            history[side].append((end, byteEnd))
        }
        // Entries of the other stream this stream has passed can never be looked up again.
        if let mine = reached[side] {
            while heads[other] < history[other].count, history[other][heads[other]].time < mine {
                heads[other] += 1
            }
            if heads[other] > 1024, heads[other] * 2 > history[other].count {
                history[other].removeFirst(heads[other])
                heads[other] = 0
            }
        }
    }
}
