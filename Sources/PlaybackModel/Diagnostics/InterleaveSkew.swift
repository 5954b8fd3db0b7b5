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

    // What one stream has reached, and (reached time, byte end) each time its reach grew, oldest first
    // from `head` on. Two stored sides rather than arrays of arrays: this runs for every packet.
    private struct Side: Sendable {
        var reached = -Double.infinity
        var history: [(time: Double, byteEnd: Int64)] = []
        var head = 0
    }

    private var first = Side()
    private var second = Side()
    private var bytesRead: Int64 = 0

    /// Compares `first` and `second` (stream indices).
    public init(first: Int, second: Int) { streams = (first, second) }

    /// Adds the next packet in read order; packets of other streams only advance the byte count.
    public mutating func add(_ packet: MediaPacket) {
        let byteEnd = (packet.position ?? bytesRead) + Int64(packet.size)
        bytesRead = max(bytesRead, byteEnd)
        let isFirst: Bool
        if packet.stream == streams.first { isFirst = true } else if packet.stream == streams.second { isFirst = false } else { return }
        guard let start = packet.pts ?? packet.dts, start.isFinite else { return }
        let end = start + max(packet.duration ?? 0, 0)
        if isFirst {
            Self.add(end: end, byteEnd: byteEnd, mine: &first, other: &second, seconds: &maxSkewSeconds, bytes: &maxSkewBytes)
        } else {
            Self.add(end: end, byteEnd: byteEnd, mine: &second, other: &first, seconds: &maxSkewSeconds, bytes: &maxSkewBytes)
        }
    }

    private static func add(
        end: Double, byteEnd: Int64, mine: inout Side, other: inout Side, seconds: inout Double, bytes: inout Int64
    ) {
        // -infinity (nothing yet) never reaches a finite end.
        if other.reached >= end {
            seconds = max(seconds, other.reached - end)
            // The first entry of the other stream that reached `end`: entries are in increasing time.
            var low = other.head
            var high = other.history.count
            while low < high {
                let middle = (low + high) / 2
                if other.history[middle].time >= end { high = middle } else { low = middle + 1 }
            }
            if low < other.history.count {
                bytes = max(bytes, byteEnd - other.history[low].byteEnd)
            }
        }
        if end > mine.reached {
            mine.reached = end
            mine.history.append((end, byteEnd))
        }
        // Entries of the other stream this stream has passed can never be looked up again.
        let reach = mine.reached
        while other.head < other.history.count, other.history[other.head].time < reach {
            other.head += 1
        }
        if other.head > 1024, other.head * 2 > other.history.count {
            other.history.removeFirst(other.head)
            other.head = 0
        }
    }
}
