/// The bar drawn as N >= 2 segments with the current one highlighted (HLS segments, chapters, or the
/// phases of a check).
///
/// Two flavours:
/// - *time segments* (`starts` set): the bar stays a time bar (played, buffered, thumb, markers); each
///   segment start after the first is drawn as a separator, and the cells of the current segment use
///   the `current` layer instead of the track.
///   With variants (`variantBitRates` set: an adaptive stream), each loaded segment is painted in its
///   variant's look (`ProgressStyle.variantLook`), the current segment in the look of the variant being
///   fetched, and the line gets a legend field naming that variant.
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
    /// Per segment (time segments only), the variant its loaded copy is at, 0 being the lowest bit rate;
    /// `nil` for a segment not loaded. Empty for media with one variant.
    public var variants: [Int?]
    /// The variants' bit rates in bits per second, ascending: what the legend names. Empty for media with
    /// one variant (then nothing is painted per variant).
    public var variantBitRates: [Double]
    /// The variant being fetched now (0 = lowest), drawn on the current segment and named by the legend.
    public var currentVariant: Int?

    /// Equal phases: `count` segments (raised to 2 if smaller), `current` clamped to `0...count`.
    public init(count: Int, current: Int, labels: [String] = []) {
        self.count = max(2, count)
        self.starts = nil
        self.current = min(max(current, 0), max(2, count))
        self.labels = labels
        self.variants = []
        self.variantBitRates = []
        self.currentVariant = nil
    }

    /// Time segments starting at `starts` (seconds, ascending); fewer than 2 starts are padded so the
    /// rule N >= 2 holds. For an adaptive stream, `variants` gives each segment's loaded variant (0 =
    /// lowest; `nil` or missing: not loaded), `variantBitRates` the ladder ascending, and `currentVariant`
    /// the variant being fetched; variants outside the ladder are ignored.
    public init(
        starts: [Double], current: Int, labels: [String] = [], variants: [Int?] = [], variantBitRates: [Double] = [],
        currentVariant: Int? = nil
    ) {
        var starts = starts.sorted()
        while starts.count < 2 { starts.append(starts.last ?? 0) }
        self.count = starts.count
        self.starts = starts
        self.current = min(max(current, 0), starts.count)
        self.labels = labels
        let ladder = variantBitRates.indices
        self.variants = variantBitRates.isEmpty ? [] : variants.map { $0.flatMap { ladder.contains($0) ? $0 : nil } }
        self.variantBitRates = variantBitRates
        self.currentVariant = currentVariant.flatMap { ladder.contains($0) ? $0 : nil }
    }

    /// The variant of segment `index`, when it is loaded and the stream has variants.
    func variant(ofSegment index: Int) -> Int? {
        variants.indices.contains(index) ? variants[index] : nil
    }

    /// The name of the current segment, if one was given.
    public var currentLabel: String? {
        labels.indices.contains(current) ? labels[current] : nil
    }
}
