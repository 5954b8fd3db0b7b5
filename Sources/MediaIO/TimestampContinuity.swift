/// Maps the timestamps of a demuxer that may restart or jump them (MPEG-TS, an HLS playlist's
/// `#EXT-X-DISCONTINUITY`: FFmpeg's `AVFMT_TS_DISCONT` formats) onto one continuous presentation timeline,
/// as players do and as ffmpeg.c does with its `dts_delta_threshold`.
///
/// One offset for the whole input, so every stream moves together. A packet whose decode time lies more
/// than `jumpThreshold` (10 s) away from where its stream was expected to continue (the previous decode
/// time plus duration), or more than `backwardTolerance` (0.1 s) behind the stream's previous decode time,
/// starts a new run: the offset changes so that it continues its stream instead. Smaller forward holes are
/// kept (they are gaps a player stalls or skips on). Pure arithmetic on seconds, no I/O.
public struct TimestampContinuity: Sendable {
    /// Jumps larger than this, either way, are discontinuities (ffmpeg.c's `dts_delta_threshold`).
    public static let jumpThreshold = 10.0
    /// A step back larger than this is a discontinuity (ffmpeg.c's `AV_TIME_BASE / 10`).
    public static let backwardTolerance = 0.1

    /// Seconds added to every timestamp so far (0 until the first discontinuity).
    public private(set) var offset = 0.0
    /// How many discontinuities were mapped.
    public private(set) var discontinuities = 0
    // Per stream index: the expected next decode time and the last decode time, on the mapped timeline;
    // NaN until the stream's first timed packet.
    private var expected: [Double] = []
    private var lastDts: [Double] = []

    /// Creates a mapping with no offset.
    public init() {}

    /// The packet's presentation and decode times on the continuous timeline.
    public mutating func map(stream: Int, pts: Double?, dts: Double?, duration: Double?)
        -> (pts: Double?, dts: Double?)
    {
        guard stream >= 0, let raw = dts ?? pts, raw.isFinite else {
            return (pts.map { $0 + offset }, dts.map { $0 + offset })
        }
        while expected.count <= stream {
            expected.append(.nan)
            lastDts.append(.nan)
        }
        var time = raw + offset
        let next = expected[stream]
        if !next.isNaN {
            let delta = time - next
            if delta < -Self.jumpThreshold || delta > Self.jumpThreshold || time + Self.backwardTolerance < lastDts[stream] {
                offset -= delta
                time -= delta
                discontinuities += 1
            }
        }
        let step = duration.flatMap { $0 > 0 && $0.isFinite ? $0 : nil } ?? 0
        expected[stream] = time + step
        lastDts[stream] = time
        return (pts.map { $0 + offset }, dts.map { $0 + offset })
    }
}
