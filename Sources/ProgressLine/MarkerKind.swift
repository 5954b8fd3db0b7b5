/// What a marker on the bar stands for. When two markers fall into the same cell the one with the
/// higher `priority` is drawn (stall over gap over seek over boundary over custom).
public enum MarkerKind: String, Sendable, Hashable, CaseIterable {
    /// Where the playhead stalled.
    case stall
    /// Where a seek landed.
    case seek
    /// A hole in the loaded data (missing packets, a timestamp jump).
    case gap
    /// A segment or chapter boundary.
    case boundary
    /// Anything else the caller wants to point at.
    case custom

    /// Which marker wins a shared cell: the larger number is drawn.
    public var priority: Int {
        switch self {
        case .stall: 4
        case .gap: 3
        case .seek: 2
        case .boundary: 1
        case .custom: 0
        }
    }
}
