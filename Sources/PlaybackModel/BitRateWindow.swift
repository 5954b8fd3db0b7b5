/// The peak bit rate over a sliding window of media time: for every packet, the bytes of all packets
/// whose time lies in `(t - window, t]`, the largest of those sums kept. Packets are expected in
/// (mostly) increasing time, as decode timestamps arrive; memory holds one window of packets, never
/// the whole file. Time that goes back by more than a window (timestamps that restart) starts a new
/// run: what came before can no longer share a window with what follows, and keeping it would stop
/// the window from ever expiring.
public struct BitRateWindow: Sendable {
    /// The window length in seconds.
    public let window: Double
    // One array of (time, size) with a moving head: one append per packet, the consumed prefix dropped
    // in bulk once it dominates, so storage stays about one window long.
    private var entries: [(time: Double, size: Int)] = []
    private var head = 0
    private var sum = 0
    /// Largest byte sum seen inside one window.
    public private(set) var peakBytes = 0

    /// Creates a window of `window` seconds (1, 5 and 10 s are the usual choices).
    public init(window: Double) {
        precondition(window > 0, "a bit-rate window must be longer than 0 s")
        self.window = window
    }

    /// Adds a packet of `size` bytes at media time `time` (seconds).
    public mutating func add(time: Double, size: Int) {
        if let newest = entries.last?.time, time < newest - window {
            entries.removeAll(keepingCapacity: true)
            head = 0
            sum = 0
        }
        entries.append((time, size))
        sum += size
        let oldest = time - window
        while head < entries.count, entries[head].time <= oldest {
            sum -= entries[head].size
            head += 1
        }
        if sum > peakBytes { peakBytes = sum }
        if head > 1024, head * 2 > entries.count {
            entries.removeFirst(head)
            head = 0
        }
    }

    /// The peak rate in bits per second (`peakBytes * 8 / window`).
    public var peakBitsPerSecond: Double { Double(peakBytes) * 8 / window }
}
