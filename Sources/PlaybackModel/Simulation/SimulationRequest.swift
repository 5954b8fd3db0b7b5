/// One request the simulated player sent, for `simulate --json`'s `requests`: a real player's request log
/// can be compared with it segment by segment.
///
/// A request's entry is written when it goes out and brought up to date as its bytes arrive, in O(1): a
/// two-hour session logs one entry per segment (or a handful for a progressive file), nothing per packet.
public struct SimulationRequest: Sendable, Hashable {
    /// The track a request belongs to.
    public enum Track: String, Sendable, Hashable {
        /// The video (or the only track, muxed audio included).
        case video
        /// A separate audio track (a DASH audio adaptation set, an HLS `EXT-X-MEDIA` audio rendition).
        case audio
    }

    /// What a request brings.
    public enum Kind: String, Sendable, Hashable {
        /// One media segment (HLS, DASH).
        case segment
        /// A media segment fetched again at a higher variant to replace its buffered copy (dash.js's fast
        /// switch, `PlayerAbrModel.fastSwitchLevel`).
        case replacement
        /// A variant's initialization segment (`#EXT-X-MAP`, DASH `Initialization`).
        case initialization
        /// A progressive file's media, from a byte on (one request carries many packets).
        case file
        /// A progressive file's head, before its first packet (range requests for an index at the end).
        case fileHead
        /// A progressive file's index (`moov`) that follows the media, by a range request.
        case fileIndex
    }

    /// The track.
    public var track: Track
    /// What it brings.
    public var kind: Kind
    /// The ascending ladder index of the variant (`--abr`); `nil` without a ladder (one rendition).
    public var variant: Int?
    /// The segment's index (0 = first) for `segment` and `replacement`; `nil` for every other kind.
    public var segment: Int?
    /// Session time it was sent, seconds.
    public var start: Double
    /// Session time its latest byte arrived, or it was dropped; `nil` before any byte arrived (a request
    /// still in its latency, or dropped during it, has no bytes).
    public var end: Double?
    /// Bytes of it that arrived.
    public var bytes: Int64
    /// Whether it was dropped before all of it arrived (abandoned for a lower variant, stopped at the
    /// forward target, cut by a seek).
    public var abandoned: Bool

    /// Creates an entry.
    public init(
        track: Track, kind: Kind, variant: Int?, segment: Int?, start: Double, end: Double? = nil, bytes: Int64 = 0,
        abandoned: Bool = false
    ) {
        self.track = track
        self.kind = kind
        self.variant = variant
        self.segment = segment
        self.start = start
        self.end = end
        self.bytes = bytes
        self.abandoned = abandoned
    }
}
