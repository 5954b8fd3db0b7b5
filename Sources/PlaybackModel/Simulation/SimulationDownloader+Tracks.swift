/// The downloader's plain questions, its request log, and its share of the link when another track's
/// transfers run beside it.
extension SimulationDownloader {
    // MARK: Queries

    /// Whether a request is in flight (or its unit is being handed over).
    var isLoading: Bool {
        switch state {
        case .fetching, .delivering: true
        case .idle, .open: false
        }
    }

    /// Whether the request in flight has bytes flowing at `now` (sent, and past its latency): it then
    /// takes a share of the link.
    func isFlowing(at now: Double) -> Bool {
        state == .fetching && fetch.flowStart <= now
    }

    /// Session time at which the request in flight starts to take a share of the link, when that is after
    /// `now`; `infinity` otherwise.
    func flowStart(after now: Double) -> Double {
        state == .fetching && fetch.flowStart > now ? fetch.flowStart : .infinity
    }

    /// Media time where the next segment starts (the end of this track's contiguous data, replaced
    /// segments apart); `infinity` once every segment is in.
    mutating func frontier() -> Double {
        let end = max(nextUnit, deliveredUnitEnd)
        return end < media.unitCount ? unit(end).start : .infinity
    }

    // MARK: Link sharing

    /// From `now` on, `share` transfers use the link (this one included): the request in flight, when its
    /// bytes flow, gets `1 / share` of the bandwidth and its completion is worked out again. Nothing changes
    /// when its share is already that (a single track never calls this with anything but 1).
    mutating func share(_ share: Double, at now: Double) {
        guard state == .fetching, fetch.flowStart <= now, fetch.flow.share != share else { return }
        fetch.flow = fetch.sample.reshared(at: now, share: share)
        if recordsArrival, !stretches.isEmpty { stretches.append((now, fetch.flow)) }
        scheduleCompletion(at: now)
    }

    /// The media request in flight's arrival curve up to `end` (its completion): its corners, bytes
    /// counted from the request's first byte; empty unless `recordsArrival`.
    func arrivalCurve(until end: Double) -> [PlayerAbrDownload.ArrivalPoint] {
        guard recordsArrival else { return [] }
        var points: [PlayerAbrDownload.ArrivalPoint] = []
        for (index, stretch) in stretches.enumerated() {
            let to = index + 1 < stretches.count ? stretches[index + 1].from : end
            guard to >= stretch.from else { continue }
            for corner in stretch.flow.corners(from: stretch.from, to: to) {
                // A stretch starts where the one before it ended, with the same bytes in (and a share may
                // change at the very time the flow began): one corner at that time, the later stretch's.
                if let last = points.last, last.time == corner.time { points.removeLast() }
                points.append(PlayerAbrDownload.ArrivalPoint(time: corner.time, bytes: corner.bits / 8))
            }
        }
        return points
    }

    /// A segment handed over while another track decides what loads next: the connection is free.
    mutating func releaseAfterDelivery() {
        if case .delivering = state { state = .idle }
    }

    // MARK: Request log

    /// Every request sent so far, in order, the open one up to date.
    var log: [SimulationRequest] {
        guard let entry = openEntry else { return entries }
        var log = entries
        log[entry].bytes = openBytes
        log[entry].end = openEnd
        return log
    }

    /// Writes the entry of a request sent at `now`.
    mutating func openEntry(_ kind: SimulationRequest.Kind, segment: Int?, at now: Double) {
        closeEntry(abandoned: false)
        entries.append(
            SimulationRequest(
                track: track, kind: kind, variant: variantUnits.isEmpty ? nil : variant, segment: segment, start: now))
        openEntry = entries.count - 1
        openBytes = 0
        openEnd = nil
    }

    /// `bytes` of the open request (if any) arrived by `now`.
    mutating func book(_ bytes: Int64, at now: Double) {
        bytesReceived += bytes
        openBytes += bytes
        openEnd = now
    }

    /// The open request is over: all of it came, or it was dropped (`abandoned`).
    mutating func closeEntry(abandoned: Bool) {
        guard let entry = openEntry else { return }
        entries[entry].bytes = openBytes
        entries[entry].end = openEnd
        entries[entry].abandoned = abandoned
        openEntry = nil
    }
}
