/// The peak bit rate over a sliding window of media time: for every packet, the bytes of all packets
/// whose time lies in `(t - window, t]`, the largest of those sums kept. Packets are expected in
/// (mostly) increasing time, as decode timestamps arrive; memory holds one window of packets, never
/// the whole file.
public struct BitRateWindow: Sendable {
    /// The window length in seconds.
    public let window: Double
    private var times: [Double] = []
    private var sizes: [Int] = []
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
        times.append(time)
        sizes.append(size)
        sum += size
        while head < times.count, times[head] <= time - window {
            sum -= sizes[head]
            head += 1
        }
        peakBytes = max(peakBytes, sum)
        // Compact once the consumed prefix dominates, so storage stays one window long.
        if head > 1024, head * 2 > times.count {
            times.removeFirst(head)
            sizes.removeFirst(head)
            head = 0
        }
    }

    /// The peak rate in bits per second (`peakBytes * 8 / window`).
    public var peakBitsPerSecond: Double { Double(peakBytes) * 8 / window }
}
