import BufprobeOutput
/// The latency rules of one live check, as a value with no I/O and no clock of its own: media time is
/// placed on the stream's clock by anchors, the clock's "now" is given with every sample, and the figures
/// of `CheckReport.LiveLatency` come out. `LiveEdgeState` (in `CheckMachine`) feeds it from a running check; tests feed it
/// directly.
///
/// Latency at a moment = the stream clock then minus the clock time of the media at the playhead, where
/// the media's clock time is the newest anchor at or before it plus the media time since (before the
/// first anchor, the first anchor extrapolated back). While playing, the latency stays flat; a stall
/// raises it by the stall's length. The mean is the time average from the first sample after playback
/// started, the latency taken as linear between samples (it is: flat while playing, rising one second per
/// second while stalled), so it does not depend on how often samples come.
package struct LiveLatencyTracker: Sendable {
    /// What maps media to the clock (`CheckReport.LiveLatency.basis`).
    package var basis: String?
    /// The clock's name and its offset ahead of this machine's, seconds.
    package var clock = (name: "system", offset: 0.0)
    /// `--live-start` as reported.
    package var liveStart = "hold-back"
    /// Hold-back as reported (the applied figure is filled by `firstMedia(_:)` when not given).
    package var holdBack = CheckReport.LiveLatency.HoldBack()

    private var anchors: [(media: Double, unix: Double)] = []
    private var edge: Double?
    private var edgeDelays: (last: Double, sum: Double, count: Int)?
    private var firstMediaTime: Double?
    private var stats: (first: Double, min: Double, max: Double, last: Double, lastAt: Double, weighted: Double, span: Double, count: Int)?

    /// No anchor yet.
    package init() {}

    /// Whether any media is placed on the clock yet.
    package var isAnchored: Bool { !anchors.isEmpty }

    /// Media time `media` (seconds, the packets' own timeline) was captured at `unix` on the stream's clock.
    /// Anchors are kept in the order given; a later one replaces the mapping from its media time on.
    package mutating func anchor(mediaTime media: Double, unixTime unix: Double) {
        guard media.isFinite, unix.isFinite else { return }
        if let last = anchors.last, last.media == media, last.unix == unix { return }
        anchors.append((media, unix))
        // Bounded: a discontinuity a segment re-anchors; a live check keeps the recent ones.
        if anchors.count > 256 { anchors.removeFirst(anchors.count - 256) }
        fillApplied()
    }

    /// The clock time of media time `media`, `nil` before the first anchor.
    package func unixTime(ofMedia media: Double) -> Double? {
        guard let first = anchors.first else { return nil }
        let anchor = anchors.last { $0.media <= media } ?? first
        return anchor.unix + (media - anchor.media)
    }

    /// The media time captured at clock time `unix`, `nil` before the first anchor.
    package func mediaTime(ofUnix unix: Double) -> Double? {
        guard let last = anchors.last else { return nil }
        let anchor = anchors.last { $0.unix <= unix } ?? last
        return anchor.media + (unix - anchor.unix)
    }

    /// The newest media the origin lists ends at clock time `unix`; looked at when the stream clock read `now`.
    package mutating func edge(unixTime unix: Double, now: Double) {
        guard unix.isFinite, now.isFinite else { return }
        edge = unix
        let delay = now - unix
        let sums = edgeDelays ?? (0, 0, 0)
        edgeDelays = (delay, sums.sum + delay, sums.count + 1)
        fillApplied()
    }

    /// The first media played starts at media time `media`: with the edge then, the hold-back applied.
    package mutating func firstMedia(_ media: Double) {
        guard firstMediaTime == nil, media.isFinite else { return }
        firstMediaTime = media
        fillApplied()
    }

    private mutating func fillApplied() {
        guard holdBack.applied == nil, let edge, let first = firstMediaTime, let start = unixTime(ofMedia: first) else { return }
        holdBack.applied = edge - start
    }

    /// The latency with the playhead at media time `playhead` and the stream clock at `now`.
    package func latency(playhead: Double, now: Double) -> Double? {
        unixTime(ofMedia: playhead).map { now - $0 }
    }

    /// Records the latency at stream clock `now` with the playhead at `playhead`, once playback has started
    /// (samples before are ignored); samples must come in clock order.
    package mutating func sample(playhead: Double, now: Double) {
        guard let value = latency(playhead: playhead, now: now), value.isFinite, now.isFinite else { return }
        guard var current = stats else {
            stats = (value, value, value, value, now, 0, 0, 1)
            return
        }
        guard now >= current.lastAt else { return }
        let step = now - current.lastAt
        current.weighted += (current.last + value) / 2 * step
        current.span += step
        current.min = Swift.min(current.min, value)
        current.max = Swift.max(current.max, value)
        current.last = value
        current.lastAt = now
        current.count += 1
        stats = current
    }

    /// The report, `nil` when no media was ever placed on the clock.
    package func report() -> CheckReport.LiveLatency? {
        guard let basis, isAnchored else { return nil }
        var report = CheckReport.LiveLatency(
            basis: basis, clock: clock.name, clockOffset: JSONOutput.seconds(clock.offset), liveStart: liveStart,
            holdBack: CheckReport.LiveLatency.HoldBack(
                applied: holdBack.applied.map(JSONOutput.seconds), target: holdBack.target.map(JSONOutput.seconds),
                rule: holdBack.rule),
            samples: stats?.count ?? 0)
        if let stats {
            report.atStart = JSONOutput.seconds(stats.first)
            report.atEnd = JSONOutput.seconds(stats.last)
            report.min = JSONOutput.seconds(stats.min)
            report.max = JSONOutput.seconds(stats.max)
            report.mean = JSONOutput.seconds(stats.span > 0 ? stats.weighted / stats.span : stats.last)
            report.drift = JSONOutput.seconds(stats.last - stats.first)
        }
        if let edgeDelays {
            report.edgeDelay = JSONOutput.seconds(edgeDelays.last)
            report.edgeDelayMean = JSONOutput.seconds(edgeDelays.sum / Double(edgeDelays.count))
        }
        return report
    }
}
