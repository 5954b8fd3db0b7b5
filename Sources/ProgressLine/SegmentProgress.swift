/// The bar drawn as N >= 2 segments with the current one highlighted (HLS segments, chapters, or the
/// phases of a check).
///
/// Two flavours:
/// - *time segments* (`starts` set): the bar stays a time bar (played, buffered, thumb, markers); each
///   segment start after the first is drawn as a separator, and the cells of the current segment use
///   the `current` layer instead of the track.
/// - *phases* (`starts` nil): the bar is split into `count` equal parts with separators between them;
///   parts before `current` are drawn done (progress layer), the current part highlighted (the
///   `current` layer, animated when the snapshot is indeterminate), later parts as track.
public struct SegmentProgress: Sendable, Hashable {
    /// Number of segments, at least 2.
    public private(set) var count: Int
    /// Start of each segment in seconds for time segments; nil for equal phases.
    public private(set) var starts: [Double]?
    /// Index of the current segment, clamped to `0...count` (`count` means all done).
    public var current: Int {
        didSet { current = min(max(current, 0), count) }
    }
    /// Optional names, one per segment (such as `resolve`, `connect`); shown next to the index.
    public var labels: [String]

    /// Equal phases: `count` segments (raised to 2 if smaller), `current` clamped to `0...count`.
    public init(count: Int, current: Int, labels: [String] = []) {
        self.count = max(2, count)
        self.starts = nil
        self.current = min(max(current, 0), max(2, count))
        self.labels = labels
    }

    /// Time segments starting at `starts` (seconds, ascending); fewer than 2 starts are padded so the
    /// rule N >= 2 holds.
    public init(starts: [Double], current: Int, labels: [String] = []) {
        var starts = starts.sorted()
        while starts.count < 2 { starts.append(starts.last ?? 0) }
        self.count = starts.count
        self.starts = starts
        self.current = min(max(current, 0), starts.count)
        self.labels = labels
    }

    /// The name of the current segment, if one was given.
    public var currentLabel: String? {
        labels.indices.contains(current) ? labels[current] : nil
    }
}
