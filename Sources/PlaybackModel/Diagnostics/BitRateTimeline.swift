/// Bytes per fixed slice of presentation time and the keyframe times: the data behind the bit-rate plot.
/// Memory is one counter per slice of the media (7,200 for two hours at 1 s) plus one time per keyframe.
public struct BitRateTimeline: Sendable, Hashable {
    /// Slice length in seconds.
    public let slice: Double
    /// The stream whose keyframes are marked (the played video), if any.
    public let keyframeStream: Int?
    /// The first packet's time in read order: slice `i` covers `[anchor + i·slice, anchor + (i+1)·slice)`,
    /// and the few packets presented before it (encoder priming, reordered frames) count in slice 0.
    public private(set) var anchor: Double?
    /// Bytes per slice index.
    public private(set) var bytesBySlice: [Int: Int64] = [:]
    /// Presentation times of `keyframeStream`'s keyframes, in read order.
    public private(set) var keyframes: [Double] = []

    /// A timeline of `slice`-second slices (> 0), marking the keyframes of `keyframeStream`.
    public init(slice: Double = 1, keyframeStream: Int?) {
        // A caller contract: the commands use the default 1 s slice; no input sets it.
        precondition(slice > 0, "a slice must be longer than 0 s")
        self.slice = slice
        self.keyframeStream = keyframeStream
    }

    /// Adds a packet (any stream) at its presentation time (decode time when it has none).
    public mutating func add(_ packet: MediaPacket) {
        guard let time = packet.pts ?? packet.dts, time.isFinite else { return }
        let anchor = self.anchor ?? time
        self.anchor = anchor
        // Int() truncates toward zero, which is the floor here since earlier times go to slice 0.
        // (`rounded` needs libm, which PlaybackModel does not link.) A timestamp from a damaged file can lie
        // further from the anchor than an Int counts (Int() would trap): such a packet has no slice.
        let offset = max((time - anchor) / slice, 0)
        guard offset < Self.sliceLimit else { return }
        let index = Int(offset)
        bytesBySlice[index, default: 0] += Int64(packet.size)
        if packet.isKeyframe, packet.stream == keyframeStream { keyframes.append(time) }
    }

    // 2^62: far beyond any real media, and every smaller Double converts to Int exactly enough.
    private static let sliceLimit = 4.611686018427388e18

    /// The slices that hold data, in time order, as (start time, bits per second). Empty slices are left
    /// out: one packet a million seconds after the others (a damaged timestamp) must not cost a million
    /// entries.
    public var rates: [(start: Double, bitsPerSecond: Double)] {
        guard let anchor else { return [] }
        return bytesBySlice.keys.sorted().map { index in
            (anchor + Double(index) * slice, Double(bytesBySlice[index] ?? 0) * 8 / slice)
        }
    }
}
