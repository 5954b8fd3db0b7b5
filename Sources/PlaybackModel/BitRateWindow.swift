/// The peak bit rate over a sliding window of media time: for every packet, the bytes of all packets
/// whose time lies in `(t - window, t]`, the largest of those sums kept. Packets are expected in
/// (mostly) increasing time, as decode timestamps arrive; memory holds one window of packets, never
/// the whole file. One length of `BitRateWindows`, which states the rules (timestamps going back by
/// more than the window restart it).
public struct BitRateWindow: Sendable {
    /// The window length in seconds.
    public let window: Double
    private var windows: BitRateWindows

    /// Creates a window of `window` seconds (1, 5 and 10 s are the usual choices).
    public init(window: Double) {
        // A caller contract: check and probe use a constant 1 s window; no input sets it.
        precondition(window > 0, "a bit-rate window must be longer than 0 s")
        self.window = window
        windows = BitRateWindows(lengths: [window])
    }

    /// Adds a packet of `size` bytes at media time `time` (seconds).
    public mutating func add(time: Double, size: Int) { windows.add(time: time, size: size) }

    /// Largest byte sum seen inside one window.
    public var peakBytes: Int { windows.peakBytes(at: 0) }

    /// The peak rate in bits per second (`peakBytes * 8 / window`).
    public var peakBitsPerSecond: Double { windows.peakBitsPerSecond(at: 0) }

    /// Packets held now: about one window's worth.
    public var heldPackets: Int { windows.heldPackets }
}
