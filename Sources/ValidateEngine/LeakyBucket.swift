/// ISO/IEC 23009-1's definition of `@bandwidth` (5.3.5.2): on a hypothetical channel of constant bit rate
/// `@bandwidth`, a representation delivered from any segment start, whose playout begins `@minBufferTime`
/// after its first bit arrived, never waits for data. Judged per sample: every packet's bytes (and every
/// byte of its segment before it) must have arrived by its decode time. Pure: `minimumBandwidth` is the
/// smallest rate that meets it, what `validate` holds `@bandwidth` against.
public enum LeakyBucket {
    /// A segment's bytes up to a packet, needed by the packet's decode time (seconds, the media's timeline).
    public struct Point: Sendable, Hashable, Codable {
        /// Decode time, seconds.
        public var time: Double
        /// The segment's bytes needed by then (every byte before the packet's end).
        public var bytes: Int64

        /// A point.
        public init(time: Double, bytes: Int64) {
            self.time = time
            self.bytes = bytes
        }
    }

    /// The points of one segment, reduced to their upper convex hull: for any delivery start before the
    /// segment, the most demanding point is on it, so a segment of hundreds of packets keeps a handful.
    public struct Curve: Sendable {
        private var all: [Point] = []

        /// An empty curve.
        public init() {}

        /// Records that `bytes` of the segment are needed by `time`.
        public mutating func add(time: Double, bytes: Int64) {
            guard time.isFinite else { return }
            all.append(Point(time: time, bytes: bytes))
        }

        /// The upper hull, by time.
        public var points: [Point] {
            let sorted = all.sorted { $0.time != $1.time ? $0.time < $1.time : $0.bytes > $1.bytes }
            var hull: [Point] = []
            for point in sorted {
                if let last = hull.last, last.time == point.time { continue }
                while hull.count >= 2 {
                    let (a, b) = (hull[hull.count - 2], hull[hull.count - 1])
                    // b lies on or under the line from a to the new point: it is never the most demanding.
                    let cross = (b.time - a.time) * Double(point.bytes - a.bytes) - Double(b.bytes - a.bytes) * (point.time - a.time)
                    if cross >= 0 { hull.removeLast() } else { break }
                }
                hull.append(point)
            }
            // The segment's last byte is needed by its last decode time at the latest.
            if let most = all.map(\.bytes).max(), let last = hull.last, last.bytes < most {
                hull[hull.count - 1].bytes = most
            }
            return hull
        }
    }

    /// The most segments back a delivery start is tried from, for each segment (a bound on the work of a
    /// very long representation: starts further back average over so much media that they never decide).
    public static let window = 2_000

    /// The smallest bit rate (bits per second) at which delivery from any segment start of `segments` (each
    /// one's `Curve.points`, in order, consecutive) with `minBufferTime` seconds buffered never underruns;
    /// `nil` without a segment that has points, or when `minBufferTime` is not above 0 and finite.
    public static func minimumBandwidth(_ segments: [[Point]], minBufferTime: Double) -> Double? {
        guard minBufferTime > 0, minBufferTime.isFinite, segments.contains(where: { !$0.isEmpty }) else { return nil }
        var needed = 0.0
        for start in segments.indices {
            guard let origin = segments[start].first?.time else { continue }
            var before: Int64 = 0
            for index in start..<min(segments.count, start + window) {
                for point in segments[index] {
                    let span = minBufferTime + point.time - origin
                    guard span > 0 else { continue }
                    needed = max(needed, Double(before + point.bytes) * 8 / span)
                }
                before += segments[index].last?.bytes ?? 0
            }
        }
        return needed
    }
}
