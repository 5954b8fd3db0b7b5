/// One configurable layer of the bar, bottom to top: track, buffer, progress, then markers, then thumb;
/// `current` and `separator` serve segmented mode.
public enum BarLayer: String, Sendable, Hashable, CaseIterable {
    /// The empty bar: time not loaded.
    case track
    /// Loaded time ranges.
    case buffer
    /// The played part.
    case progress
    /// The playhead.
    case thumb
    /// The highlighted current segment in segmented mode.
    case current
    /// Separators between segments.
    case separator
    /// Stall markers.
    case stall
    /// Seek markers.
    case seek
    /// Gap markers.
    case gap
    /// Segment or chapter boundary markers.
    case boundary
    /// Custom markers.
    case custom

    /// The layer that draws markers of `kind`.
    public init(marker kind: MarkerKind) {
        switch kind {
        case .stall: self = .stall
        case .seek: self = .seek
        case .gap: self = .gap
        case .boundary: self = .boundary
        case .custom: self = .custom
        }
    }

    /// Parses a layer name; `played` is accepted for `progress` and `buffered` for `buffer`.
    public init(parsing text: String) throws(ProgressStyleError) {
        let name = text.lowercased()
        switch name {
        case "played": self = .progress
        case "buffered": self = .buffer
        default:
            guard let layer = BarLayer(rawValue: name) else { throw .unknownLayer(text) }
            self = layer
        }
    }
}
