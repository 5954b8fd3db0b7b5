package import InputReading

/// What was read of one media segment: its declared duration, its bytes, and what its packets say (the
/// media's real duration, whether video starts with a keyframe, the streams), or why it could not be read.
public struct SegmentRead: Sendable, Hashable {
    /// Position in its media playlist, from 0.
    public var index: Int
    /// Where it was read from (resolved against its playlist).
    public var uri: String
    /// `#EXTINF`, seconds.
    public var declaredDuration: Double
    /// The segment's own bytes (its byte range, without the `#EXT-X-MAP` section); `nil` when not read.
    public var bytes: Int64?
    /// The media's real duration: from the earliest presentation time to the latest end of a packet of the
    /// timed stream (video when there is one, else audio); `nil` when no packet had a time.
    public var mediaDuration: Double?
    /// The longest packet duration of the timed stream: one frame, the tolerance of apple:8.1.
    public var frameDuration: Double?
    /// Whether the first video packet (in decode order) is a keyframe; `nil` without video.
    public var startsWithKeyframe: Bool?
    /// The earliest presentation time of the timed stream, seconds on the media's own timeline (what a DASH
    /// `S@t` declares); `nil` when no packet had a time.
    public var earliestPresentation: Double?
    /// How many video packets (frames) it holds; `nil` without video.
    public var videoFrames: Int?
    /// When each byte is needed: the segment's bytes up to each packet, against the packet's decode time
    /// (the upper hull of that curve, which is all the leaky bucket of `LeakyBucket` needs).
    public var arrivals: [LeakyBucket.Point] = []
    /// The type of the ISO BMFF box the segment's own bytes start with (`moof`, `styp`, `sidx`, `ftyp`), `nil`
    /// when they do not start with a box header (MPEG-TS, ADTS) or were not read.
    public var firstBox: String?
    /// The audio and video streams FFmpeg found.
    package var streams: [CodecComparison.Stream] = []
    /// Why it could not be read or opened as media (a clause), or `nil`.
    public var error: String?

    /// A segment read (or not) at `index` of its playlist.
    public init(
        index: Int, uri: String, declaredDuration: Double, bytes: Int64? = nil, mediaDuration: Double? = nil,
        frameDuration: Double? = nil, startsWithKeyframe: Bool? = nil, error: String? = nil
    ) {
        self.index = index
        self.uri = uri
        self.declaredDuration = declaredDuration
        self.bytes = bytes
        self.mediaDuration = mediaDuration
        self.frameDuration = frameDuration
        self.startsWithKeyframe = startsWithKeyframe
        self.error = error
    }
}
