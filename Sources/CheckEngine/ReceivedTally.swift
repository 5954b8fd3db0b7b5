import PlaybackModel

/// The payload bytes, bit rates and media span of the packets a check received (the figures of the
/// report's `measured_bit_rate` and `peak_bit_rate`). A value held by `CheckMachine`.
package struct ReceivedTally: Sendable {
    private var payloadBytes: Int64 = 0
    private var peak = BitRateWindow(window: 1)
    private var spanStart: Double?
    private var spanEnd: Double?

    /// Nothing received.
    package init() {}

    /// Counts a packet of `size` bytes with these timestamps (seconds) and duration.
    package mutating func count(size: Int, pts: Double?, dts: Double?, duration: Double?) {
        payloadBytes += Int64(size)
        if let time = dts ?? pts { peak.add(time: time, size: size) }
        if let start = pts ?? dts {
            spanStart = min(spanStart ?? start, start)
            spanEnd = max(spanEnd ?? start, start + (duration ?? 0))
        }
    }

    /// Payload bit rate over the received media span.
    package var averageBitRate: Double? {
        guard let spanStart, let spanEnd, spanEnd > spanStart else { return nil }
        return Double(payloadBytes) * 8 / (spanEnd - spanStart)
    }

    /// Peak payload bit rate in any 1 s window of decode time.
    package var peakBitRate: Double? { payloadBytes > 0 ? peak.peakBitsPerSecond : nil }
}
