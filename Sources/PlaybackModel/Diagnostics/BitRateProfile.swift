/// The bit rate of a whole file (every stream together) over sliding windows of decode time, against its
/// average: how bursty it is. Built on `BitRateWindows` (one ring for every length); memory holds one window
/// of the longest length.
public struct BitRateProfile: Sendable {
    /// One window's peak.
    public struct Peak: Sendable, Hashable {
        /// Window length in seconds.
        public var window: Double
        /// Peak bits per second over any window of that length; `nil` when the media is shorter than it.
        public var bitsPerSecond: Double?
    }

    /// Window lengths used by `bufprobe probe`.
    public static let standardWindows: [Double] = [1, 5, 10]

    private var windows: BitRateWindows
    private var first: Double?
    private var end: Double?
    /// Payload bytes of every packet added.
    public private(set) var bytes: Int64 = 0

    /// A profile over `windows` (seconds, each > 0).
    public init(windows: [Double] = BitRateProfile.standardWindows) {
        self.windows = BitRateWindows(lengths: windows)
    }

    /// Adds a packet (any stream), placed at its decode time (presentation time when it has none).
    public mutating func add(_ packet: MediaPacket) {
        bytes += Int64(packet.size)
        guard let time = packet.dts ?? packet.pts, time.isFinite else { return }
        windows.add(time: time, size: packet.size)
        first = min(first ?? time, time)
        end = max(end ?? time, time + max(packet.duration ?? 0, 0))
    }

    /// Seconds from the first packet's time to the furthest packet end.
    public var span: Double? {
        guard let first, let end, end > first else { return nil }
        return end - first
    }

    /// `bytes * 8 / span`.
    public var averageBitsPerSecond: Double? { span.map { Double(bytes) * 8 / $0 } }

    /// Each window's peak, in the order given.
    public var peaks: [Peak] {
        windows.lengths.indices.map { index in
            let length = windows.lengths[index]
            return Peak(window: length, bitsPerSecond: (span ?? 0) >= length ? windows.peakBitsPerSecond(at: index) : nil)
        }
    }
}
