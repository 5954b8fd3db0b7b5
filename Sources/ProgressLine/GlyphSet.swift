/// Which characters draw the bar: Unicode blocks (with eighth blocks for sub-cell precision) or
/// plain ASCII for terminals and logs that are not UTF-8.
public enum GlyphSet: String, Sendable, Hashable, CaseIterable {
    /// Block elements and box drawing; the default on UTF-8 terminals.
    case unicode
    /// Printable ASCII only.
    case ascii
}
