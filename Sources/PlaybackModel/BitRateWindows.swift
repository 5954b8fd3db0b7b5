/// Several sliding windows of media time over one packet sequence, fused: for every packet and every
/// window length `w`, the bytes of the packets whose time lies in `(t - w, t]`, the largest such sum kept
/// per length. One ring of (time, size) holds the packets of the longest window; each length keeps only a
/// head position and a running sum, so a packet costs one store plus, per length, the packets it expires:
/// O(1) amortised, no allocation once the ring has grown to one window.
///
/// Packets are expected in (mostly) increasing time, as decode timestamps arrive; a packet whose time
/// lies before the previous packet's still joins the window, and expiry stays first-in first-out. Time
/// that goes back by more than a window from the previous packet (timestamps that restart) starts a new
/// run of that window: what came before can no longer share a window with what follows, and keeping it
/// would stop the window from ever expiring. Memory is bounded by `maxEntries` even for timestamps that
/// never advance; at that bound the oldest packet leaves every window early (never reached by real media).
public struct BitRateWindows: Sendable {
    /// Most packets held at once; beyond it the oldest leaves the windows early.
    public static let maxEntries = 1 << 20

    private struct Entry: Sendable {
        var time: Double
        var size: Int
    }

    private struct Lane: Sendable {
        let length: Double
        // Absolute position (see `end`) of the oldest packet still inside this window.
        var head = 0
        var sum = 0
        var peak = 0

        init(length: Double) { self.length = length }
    }

    /// The window lengths in seconds, in the order given.
    public let lengths: [Double]
    private var lanes: [Lane]
    // A ring with a power-of-two capacity; packet number `p` (counted from 0) lives at `p & mask`.
    private var ring: [Entry]
    private var mask: Int
    // Packet numbers: the oldest held, and one past the newest.
    private var start = 0
    private var end = 0
    // The previous packet's time; -infinity before the first packet.
    private var previous = -Double.infinity

    /// Windows of `lengths` seconds (each > 0; 1, 5 and 10 s are the usual choices).
    public init(lengths: [Double]) {
        // A caller contract: the lengths are constants (1, 5, 10 s); no input sets them.
        precondition(lengths.allSatisfy { $0 > 0 }, "a bit-rate window must be longer than 0 s")
        self.lengths = lengths
        lanes = lengths.map { Lane(length: $0) }
        ring = Array(repeating: Entry(time: 0, size: 0), count: 64)
        mask = 63
    }

    /// Adds a packet of `size` bytes at media time `time` (seconds).
    public mutating func add(time: Double, size: Int) {
        if end &- start == ring.count { makeRoom() }
        ring[end & mask] = Entry(time: time, size: size)
        let position = end
        end &+= 1
        var oldestHead = end
        let mask = self.mask
        let previous = self.previous
        self.previous = time
        // Unsafe views: one uniqueness check per add instead of one per lane and field.
        ring.withUnsafeBufferPointer { ring in
            lanes.withUnsafeMutableBufferPointer { lanes in
                for index in lanes.indices {
                    var lane = lanes[index]
                    if time < previous - lane.length {
                        // Back by more than the window: start it again from this packet.
                        lane.head = position
                        lane.sum = 0
                    }
                    // Wrapping arithmetic: byte sums of one window cannot come near Int.max.
                    lane.sum &+= size
                    let oldest = time - lane.length
                    while lane.head <= position, ring[lane.head & mask].time <= oldest {
                        lane.sum &-= ring[lane.head & mask].size
                        lane.head &+= 1
                    }
                    if lane.sum > lane.peak { lane.peak = lane.sum }
                    if lane.head < oldestHead { oldestHead = lane.head }
                    lanes[index] = lane
                }
            }
        }
        start = oldestHead
    }

    /// Largest byte sum seen inside one window of `lengths[index]`.
    public func peakBytes(at index: Int) -> Int { lanes[index].peak }

    /// The peak rate of `lengths[index]` in bits per second (`peakBytes * 8 / length`).
    public func peakBitsPerSecond(at index: Int) -> Double { Double(lanes[index].peak) * 8 / lengths[index] }

    /// Packets held now: about one window of the longest length.
    public var heldPackets: Int { end - start }

    // Doubles the ring, or at `maxEntries` lets the oldest packet leave every window.
    private mutating func makeRoom() {
        if ring.count >= Self.maxEntries {
            let oldest = ring[start & mask]
            for index in lanes.indices where lanes[index].head == start {
                lanes[index].sum -= oldest.size
                lanes[index].head += 1
            }
            start += 1
            return
        }
        let capacity = ring.count * 2
        var grown = Array(repeating: Entry(time: 0, size: 0), count: capacity)
        for position in start..<end { grown[position & (capacity - 1)] = ring[position & mask] }
        ring = grown
        mask = capacity - 1
    }
}
