/// The variants of an adaptive stream for the simulated downloader: the same segment timeline at several
/// bit rates, each segment with its real size per variant.
///
/// Variants are held in ascending order of declared bit rate. The segment timeline (start and duration)
/// is the one of the variant listed first (`timing`), as HLS variants are aligned on segment boundaries;
/// each variant contributes its own sizes.
public struct SimulationLadder: Sendable {
    /// One variant.
    public struct Variant: Sendable, Hashable {
        /// Its position in the master playlist (0 = first listed), for reports.
        public var label: Int
        /// Declared bit rate (`BANDWIDTH`), bits per second: what a player's rule compares.
        public var bitRate: Double
        /// Bytes of each segment, in playlist order.
        public var segmentBytes: [Int64]
        /// Bytes of the variant's initialization segment (`#EXT-X-MAP`, DASH `Initialization`), fetched
        /// once, by a request of its own, before the first segment fetched at this variant; 0: none.
        public var initializationBytes: Int64

        /// Creates a variant.
        public init(label: Int, bitRate: Double, segmentBytes: [Int64], initializationBytes: Int64 = 0) {
            self.label = label
            self.bitRate = bitRate
            self.segmentBytes = segmentBytes
            self.initializationBytes = initializationBytes
        }
    }

    /// The variants, ascending by bit rate (stable for equal rates).
    public let variants: [Variant]
    /// The segments' durations in seconds.
    public let durations: [Double]
    /// Presentation start of the first segment.
    public let startTime: Double

    /// Why a ladder cannot be built.
    public enum Problem: Error, Sendable, Hashable {
        /// No variant.
        case empty
        /// A variant lists a different number of segments than the first one.
        case misaligned(label: Int, segments: Int, expected: Int)
    }

    /// A ladder from variants in any order, all with one size per entry of `durations`.
    public init(variants: [Variant], durations: [Double], startTime: Double = 0) throws(Problem) {
        guard !variants.isEmpty, !durations.isEmpty else { throw .empty }
        for variant in variants where variant.segmentBytes.count != durations.count {
            throw .misaligned(label: variant.label, segments: variant.segmentBytes.count, expected: durations.count)
        }
        self.variants = variants.enumerated()
            .sorted { ($0.element.bitRate, $0.offset) < ($1.element.bitRate, $1.offset) }
            .map(\.element)
        self.durations = durations
        self.startTime = startTime
    }

    /// The declared bit rates, ascending.
    public var bitRates: [Double] { variants.map(\.bitRate) }

    /// The longest segment duration.
    public var segmentDuration: Double { durations.max() ?? 0 }

    /// Variant `index` (ascending order) as segmented media.
    public func media(variant index: Int) -> SimulationMedia {
        let chosen = variants[min(max(index, 0), variants.count - 1)]
        return .segmented(
            zip(durations, chosen.segmentBytes).map { (duration: $0.0, bytes: $0.1) }, startTime: startTime,
            initializationBytes: chosen.initializationBytes)
    }

    /// The ascending index of the variant listed `label`-th in the master playlist, if any.
    public func index(ofLabel label: Int) -> Int? { variants.firstIndex { $0.label == label } }
}
