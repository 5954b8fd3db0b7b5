extension HLSPlaylist {
    /// A rendition listed by a master playlist.
    public struct Variant: Sendable, Hashable, Codable {
        /// The media playlist's URI, as written.
        public var uri: String
        /// Peak bit rate in bits per second (`BANDWIDTH`, required by the RFC).
        public var bandwidth: Int
        /// Average bit rate in bits per second (`AVERAGE-BANDWIDTH`), when given.
        public var averageBandwidth: Int?
        /// Width and height in pixels (`RESOLUTION`), when given.
        public var resolution: Resolution?
        /// The `CODECS` string, such as `avc1.64001f,mp4a.40.2`, when given.
        public var codecs: String?
        /// Frames per second (`FRAME-RATE`), when given.
        public var frameRate: Double?
        /// The `AUDIO` rendition group, when the variant's audio comes from `#EXT-X-MEDIA` renditions (its
        /// own media playlist may then carry no audio although `CODECS` names an audio codec).
        public var audioGroup: String?
        /// Attributes given with a value no picture or rate can have, as written (`RESOLUTION=99999999999x0`,
        /// `FRAME-RATE=nan`, `AVERAGE-BANDWIDTH=-1`): the value is dropped (its property is `nil`) and named here.
        public var invalidAttributes: [String] = []
    }

    /// The largest width or height `RESOLUTION` may declare: no codec encodes a side above 65,535 pixels.
    public static let maxResolutionSide = 65_535
    /// The highest `FRAME-RATE` accepted: above any real video.
    public static let maxFrameRate = 1_000.0

    /// Picture size of a variant.
    public struct Resolution: Sendable, Hashable, Codable, CustomStringConvertible {
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int
        /// Creates a resolution.
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }

        /// `WIDTHxHEIGHT`.
        public var description: String { "\(width)x\(height)" }
    }

    /// A byte sub-range of a resource, with its offset always resolved.
    public struct ByteRange: Sendable, Hashable, Codable {
        /// Length in bytes.
        public var length: Int64
        /// Offset of the first byte.
        public var offset: Int64

        /// Creates a byte range.
        public init(length: Int64, offset: Int64) {
            self.length = length
            self.offset = offset
        }
    }

    /// An initialization section (`#EXT-X-MAP`): fetched before the first segment that needs it.
    public struct Map: Sendable, Hashable, Codable {
        /// URI as written.
        public var uri: String
        /// The sub-range, when only part of the resource is the map.
        public var byteRange: ByteRange?

        /// Creates a map.
        public init(uri: String, byteRange: ByteRange? = nil) {
            self.uri = uri
            self.byteRange = byteRange
        }
    }

    /// A media segment.
    public struct Segment: Sendable, Hashable, Codable {
        /// URI as written.
        public var uri: String
        /// Duration in seconds from `#EXTINF`.
        public var duration: Double
        /// The optional title after the duration in `#EXTINF`.
        public var title: String?
        /// The sub-range of `uri` that is this segment, when `#EXT-X-BYTERANGE` applies.
        public var byteRange: ByteRange?
        /// Media sequence number.
        public var sequence: Int
        /// Whether `#EXT-X-DISCONTINUITY` precedes it (timestamps or encoding change here).
        public var discontinuity: Bool
        /// The initialization section in force for this segment.
        public var map: Map?
        /// When its first sample was captured, seconds since the Unix epoch: its own
        /// `#EXT-X-PROGRAM-DATE-TIME`, else the previous segment's plus that segment's duration (RFC 8216
        /// §4.3.2.6: the tag applies to the next segment, and clients extrapolate from it), never across a
        /// discontinuity; `nil` when the playlist maps none of its media to the clock.
        public var programDateTime: Double?
        /// Whether `programDateTime` was written on this segment rather than carried from an earlier one.
        public var hasOwnProgramDateTime = false
        /// Its partial segments (`#EXT-X-PART` lines before its URI, LL-HLS), in order; empty when the
        /// playlist lists none for it (older segments usually).
        public var parts: [Part] = []
    }

    /// A partial segment (`#EXT-X-PART`, RFC 8216bis §4.4.4.9): a slice of the segment whose URI follows it,
    /// published before the whole segment is.
    public struct Part: Sendable, Hashable, Codable {
        /// URI as written.
        public var uri: String
        /// `DURATION` in seconds.
        public var duration: Double
        /// `INDEPENDENT=YES`: the part starts with an independent frame (a keyframe).
        public var independent: Bool
        /// `BYTERANGE`, with an omitted offset resolved as for segments (right after the previous sub-range
        /// of the same URI).
        public var byteRange: ByteRange?
        /// `GAP=YES`: the part is not available and must not be loaded.
        public var gap: Bool
        /// The media sequence number of the segment it belongs to.
        public var sequence: Int
        /// Its index within that segment, from 0.
        public var index: Int
        /// When its first sample was captured (Unix seconds): its segment's program date-time plus the
        /// durations of the parts before it; `nil` when the playlist maps no media to the clock.
        public var programDateTime: Double?
        /// The initialization section in force for it.
        public var map: Map?
    }

    /// `#EXT-X-PRELOAD-HINT` (RFC 8216bis §4.4.5.3): a resource the server says comes next, which a client may
    /// request before it is listed.
    public struct PreloadHint: Sendable, Hashable, Codable {
        /// `TYPE`: `PART` or `MAP`, as written.
        public var type: String
        /// URI as written.
        public var uri: String
        /// `BYTERANGE-START`, when given.
        public var byteRangeStart: Int64?
        /// `BYTERANGE-LENGTH`, when given.
        public var byteRangeLength: Int64?
    }

    /// `#EXT-X-RENDITION-REPORT` (RFC 8216bis §4.4.5.4): where another rendition's playlist stands.
    public struct RenditionReport: Sendable, Hashable, Codable {
        /// The rendition's media playlist URI, as written.
        public var uri: String
        /// `LAST-MSN`, when given.
        public var lastSequence: Int?
        /// `LAST-PART`, when given.
        public var lastPart: Int?
    }
}
