/// Everything one frame of the line shows: a plain value, so the renderer is a pure function and any
/// producer (probe, check, simulate) can fill it in.
public struct ProgressSnapshot: Sendable, Equatable {
    /// The state word drawn first.
    public var state: PlaybackStateWord
    /// A title (file name, URL); control characters are replaced before drawing, wide glyphs counted.
    public var title: String?
    /// The playhead (or, for probe, the read position) in seconds.
    public var currentTime: Double
    /// Media duration in seconds; nil (or not finite and positive) means live or unknown, drawn as a
    /// sliding window of `liveWindow` seconds with the playhead at three quarters, and no percentage.
    public var duration: Double?
    /// Every loaded range in seconds; holes between ranges stay visible on the bar.
    public var loaded: [Range<Double>]
    /// Seconds loaded ahead of the playhead, when known.
    public var bufferedAhead: Double?
    /// Network throughput in bits per second, when known.
    public var throughputBitsPerSecond: Double?
    /// Media seconds obtained per wall-clock second, when known: drawn `1.3x realtime`.
    public var realtimeFactor: Double?
    /// Media seconds played per wall-clock second when the session is paced (`simulate --speed 2`): drawn
    /// `2x speed`, in the realtime factor's place, so the two are never confused.
    public var playbackSpeed: Double?
    /// Input read rate in bytes per second (probe on slow inputs), when known.
    public var readBytesPerSecond: Double?
    /// Events drawn at their positions on the bar.
    public var markers: [ProgressMarker]
    /// Segmented mode, when set.
    public var segments: SegmentProgress?
    /// True while the phase has no measurable progress (opening a URL): the bar shows a moving block
    /// and the time and percentage are left out.
    public var isIndeterminate: Bool
    /// Animation step for the indeterminate block; the live line sets it from its clock.
    public var tick: Int
    /// Length in seconds of the sliding window drawn when there is no duration.
    public var liveWindow: Double
    /// For a live stream whose edge is known: the bar's track is the time-shift window up to the edge and
    /// the time field the latency (`LiveEdge`); `nil` draws the sliding window around the playhead.
    public var live: LiveEdge?
    /// Whether the bar fills the played part up to `currentTime`. Set it false when nothing plays
    /// (probe reading a file): the bar then shows only the loaded ranges with their holes, while
    /// `currentTime` still gives the time, the percentage and the thumb.
    public var showsPlayed: Bool
    /// Whether the title is what tells this row from the others (several inputs at once): it then gets
    /// room for `ProgressRenderer.keptTitleWidth` columns before fields that matter less than it, and the
    /// shortest title only after every field but the time. `LiveLine.update(rows:)` sets it when there is more than one row.
    public var keepsTitle: Bool = false

    /// Creates a snapshot; everything but the state is optional.
    public init(
        state: PlaybackStateWord,
        title: String? = nil,
        currentTime: Double = 0,
        duration: Double? = nil,
        loaded: [Range<Double>] = [],
        bufferedAhead: Double? = nil,
        throughputBitsPerSecond: Double? = nil,
        realtimeFactor: Double? = nil,
        playbackSpeed: Double? = nil,
        readBytesPerSecond: Double? = nil,
        markers: [ProgressMarker] = [],
        segments: SegmentProgress? = nil,
        isIndeterminate: Bool = false,
        tick: Int = 0,
        liveWindow: Double = 60,
        showsPlayed: Bool = true
    ) {
        self.state = state
        self.title = title
        self.currentTime = currentTime
        self.duration = duration
        self.loaded = loaded
        self.bufferedAhead = bufferedAhead
        self.throughputBitsPerSecond = throughputBitsPerSecond
        self.realtimeFactor = realtimeFactor
        self.playbackSpeed = playbackSpeed
        self.readBytesPerSecond = readBytesPerSecond
        self.markers = markers
        self.segments = segments
        self.isIndeterminate = isIndeterminate
        self.tick = tick
        self.liveWindow = liveWindow
        self.showsPlayed = showsPlayed
    }

    /// The duration when it is usable for a percentage: finite and positive.
    public var knownDuration: Double? {
        guard let duration, duration.isFinite, duration > 0 else { return nil }
        return duration
    }
}
