/// Where a live playhead stands against the live edge: what the live bar draws instead of a duration.
///
/// The bar's track is the time-shift window (`windowStart` to `edge`), the live edge at its right end, the
/// played and buffered parts and the playhead inside it, and the time field is the latency (`-8.2 s`), as
/// players' live indicators show it. All times are media times on the snapshot's timeline.
public struct LiveEdge: Sendable, Equatable {
    /// The oldest media the origin still lists; `nil` when unknown (the bar then shows the snapshot's
    /// `liveWindow` seconds behind the edge).
    public var windowStart: Double?
    /// The media being captured now.
    public var edge: Double
    /// Seconds behind the edge.
    public var latency: Double

    /// A live position.
    public init(windowStart: Double?, edge: Double, latency: Double) {
        self.windowStart = windowStart
        self.edge = edge
        self.latency = latency
    }

    /// The latency as the time field shows it: `-8.2 s` (`-` alone past a day or when not a number).
    var figure: String {
        guard latency.isFinite, abs(latency) < 86_400 else { return "-" }
        return "-" + FieldFormat.short(max(latency, 0)) + " s"
    }
}
