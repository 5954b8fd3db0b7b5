/// A media playlist's segment bit rates as RFC 8216 defines them (§4.1): a segment's bit rate is its size
/// over its `EXTINF` duration; the peak is the largest bit rate of any run of contiguous segments whose
/// durations add up to between 0.5 and 1.5 times the target duration; the average is all the bytes over
/// all the durations. Pure: the figures the bit-rate rules and the measured table use.
public struct SegmentBitRates: Sendable, Hashable, Codable {
    /// Peak segment bit rate, bits per second.
    public var peak: Double
    /// Average segment bit rate, bits per second.
    public var average: Double
    /// Segments measured.
    public var segments: Int

    /// A playlist's figures.
    public init(peak: Double, average: Double, segments: Int) {
        self.peak = peak
        self.average = average
        self.segments = segments
    }

    /// The figures of `sizes` (bytes and `EXTINF` seconds, in playlist order) for `targetDuration`; `nil`
    /// when no segment has both a size and a duration. A run that no window of 0.5 to 1.5 target durations
    /// fits (segments longer than 1.5 target durations, or no target) counts each segment alone.
    public static func measure(_ sizes: [(bytes: Int64, duration: Double)], targetDuration: Double?) -> SegmentBitRates? {
        // A hostile playlist's subnormal EXTINF gives no rate a number can hold: such a segment is left out.
        let timed = sizes.filter { $0.duration > 0 && $0.duration.isFinite && $0.bytes >= 0 && (Double($0.bytes) * 8 / $0.duration).isFinite }
        guard !timed.isEmpty else { return nil }
        let bytes = timed.reduce(0.0) { $0 + Double($1.bytes) }
        let duration = timed.reduce(0.0) { $0 + $1.duration }
        var peak = 0.0
        var windowed = false
        if let target = targetDuration, target > 0 {
            let shortest = 0.5 * target
            let longest = 1.5 * target
            for start in timed.indices {
                var runBytes = 0.0
                var runDuration = 0.0
                for index in start..<timed.count {
                    runBytes += Double(timed[index].bytes)
                    runDuration += timed[index].duration
                    if runDuration > longest { break }
                    if runDuration >= shortest {
                        peak = max(peak, runBytes * 8 / runDuration)
                        windowed = true
                    }
                }
            }
        }
        if !windowed { peak = timed.map { Double($0.bytes) * 8 / $0.duration }.max() ?? 0 }
        return SegmentBitRates(peak: peak, average: bytes * 8 / duration, segments: timed.count)
    }

    /// The figures of a playlist read: its segments that have a size.
    public static func measure(_ read: PlaylistRead) -> SegmentBitRates? {
        let sizes = read.segments.compactMap { segment in segment.bytes.map { (bytes: $0, duration: segment.declaredDuration) } }
        return measure(sizes, targetDuration: read.playlist?.targetDuration)
    }
}
