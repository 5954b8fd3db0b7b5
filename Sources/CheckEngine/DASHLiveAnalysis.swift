package import MediaIO
import BufprobeOutput

/// The rules of a live DASH check, as a pure function of the manifest read at the start, the clock, and the
/// requests the player sent (`RequestLog`): no I/O, no clock reading, so every rule is tested with made-up
/// requests.
///
/// - A manifest read is a request of one of `manifestURLs`; every read after the first is a reload. Reloads
///   are judged against `minimumUpdatePeriod`: a gap between reads (or from the last read to the end of the
///   sample) longer than 1.5 times it, and at least a second longer, is `reload_late`; a reload sooner than
///   half of it is `reload_early` (listed once, counted each time).
/// - A segment request is a request whose URL one representation's template names (`Timing.segment(url:)`).
///   Sent (on the stream's clock: local time plus `clockOffset`) more than `tolerance` before the segment's
///   availability start (its end on the clock less `availabilityTimeOffset`) it is `early_request`.
/// - An HTTP error answer to a segment requested inside its availability window (from its availability
///   start to its end plus `timeShiftBufferDepth`) is `missing_segment`: listed but not served. An error for
///   an early request is only the early request.
/// - A `SegmentTimeline` whose span differs from `timeShiftBufferDepth` by more than its longest segment
///   (a shorter one only once the stream is older than the depth) is `window_mismatch`.
package struct DASHLiveAnalysis: Sendable {
    /// The manifest as first read.
    package var manifest: DASHLiveManifest
    /// Where it was read from (after redirects): what its relative URLs resolve against.
    package var manifestURL: String
    /// Every URL a read of the manifest is requested as (the input, and where it redirected).
    package var manifestURLs: Set<String>
    /// Seconds the stream's clock is ahead of this machine's.
    package var clockOffset = 0.0
    /// This machine's Unix time at check time 0.
    package var unixAtStart: Double
    /// Seconds a request may come before availability without being called early (clock reading error).
    package var tolerance = 0.1

    /// An analysis of requests made for `manifest`, read from `manifestURL`.
    package init(manifest: DASHLiveManifest, manifestURL: String, manifestURLs: Set<String>, unixAtStart: Double) {
        self.manifest = manifest
        self.manifestURL = manifestURL
        self.manifestURLs = manifestURLs.union([manifestURL])
        self.unixAtStart = unixAtStart
    }

    /// A segment request matched to its representation.
    package struct SegmentRequest: Sendable, Hashable {
        /// The representation.
        package var timing: DASHLiveManifest.Timing
        /// The segment.
        package var segment: DASHLiveManifest.Timing.Segment
        /// The request's URL.
        package var url: String
        /// When it was sent, stream clock.
        package var unixTime: Double
    }

    /// The representation and segment `url` names, sent at local Unix time `unixTime`.
    package func segmentRequest(_ url: String, unixTime: Double) -> SegmentRequest? {
        for timing in manifest.representations {
            if let segment = timing.segment(url: url, manifestURL: manifestURL) {
                return SegmentRequest(timing: timing, segment: segment, url: url, unixTime: unixTime + clockOffset)
            }
        }
        return nil
    }

    /// The first segment request that was not answered with an error: what the player started with.
    package func firstPlayed(_ requests: [RequestLog.Entry]) -> SegmentRequest? {
        for (index, entry) in requests.enumerated() where entry.status == 0 {
            guard let request = segmentRequest(entry.url, unixTime: entry.unixTime) else { continue }
            let failed = requests[(index + 1)...].prefix(4).contains { $0.status != 0 && $0.url == entry.url }
            if !failed { return request }
        }
        return nil
    }

    /// The live edge on the stream clock at that clock's `unixTime`: the newest available segment's end,
    /// over the played (else first) representation.
    package func edge(at unixTime: Double, of timing: DASHLiveManifest.Timing? = nil) -> Double? {
        guard let timing = timing ?? manifest.representations.first(where: { $0.kind == .video }) ?? manifest.representations.first
        else { return nil }
        return manifest.edge(of: timing, at: unixTime)
    }

    /// The report for `requests` (oldest first), the sample ending at check time `end`, filled into `base`.
    package func report(_ requests: [RequestLog.Entry], end: Double, base: DASHLiveReport) -> DASHLiveReport {
        var report = base
        report.clockOffset = JSONOutput.seconds(clockOffset)
        report.availabilityStartTime = manifest.availabilityStartTime
        report.minimumUpdatePeriod = manifest.minimumUpdatePeriod
        report.timeShiftBufferDepth = manifest.timeShiftBufferDepth
        report.suggestedPresentationDelay = manifest.suggestedPresentationDelay
        report.targetLatency = manifest.targetLatency
        let checkTime = { (unix: Double) in unix - self.unixAtStart }
        judgeWindow(&report, end: end)
        var reads: [Double] = []
        var sent: [String: SegmentRequest] = [:]
        var early: Set<String> = []
        for entry in requests {
            if entry.status == 0, manifestURLs.contains(entry.url) {
                reads.append(checkTime(entry.unixTime))
                continue
            }
            if entry.status == 0 {
                guard let request = segmentRequest(entry.url, unixTime: entry.unixTime) else { continue }
                report.segmentsRequested += 1
                if sent.count < 4096 || sent[entry.url] != nil { sent[entry.url] = request }
                if report.startSegment == nil, report.availabilityTimeOffset == nil {
                    report.availabilityTimeOffset = request.timing.availabilityTimeOffset
                }
                guard let available = manifest.availabilityStart(of: request.segment, in: request.timing),
                    request.unixTime < available - tolerance
                else {
                    early.remove(entry.url)
                    continue
                }
                early.insert(entry.url)
                let offset = request.timing.availabilityTimeOffset
                report.add(
                    .earlyRequest, at: checkTime(entry.unixTime), url: entry.url,
                    message: "The player requested \(entry.url) \(TextFormat.seconds(available - request.unixTime)) before it was available (its end on the stream clock\(offset > 0 ? " less availabilityTimeOffset \(TextFormat.seconds(offset))" : "")).")
                continue
            }
            // An error answer: for the request just sent with that URL.
            guard let request = sent[entry.url], !early.contains(entry.url),
                let available = manifest.availabilityStart(of: request.segment, in: request.timing),
                request.unixTime >= available - tolerance
            else { continue }
            if let gone = manifest.availabilityEnd(of: request.segment), request.unixTime > gone { continue }
            report.add(
                .missingSegment, at: checkTime(entry.unixTime), url: entry.url,
                message: "\(manifestURL) lists \(entry.url), inside its availability window, but it answered HTTP \(entry.status).")
        }
        if let first = firstPlayed(requests) {
            report.startSegment = first.segment.number
            if let edge = edge(at: first.unixTime, of: first.timing), let origin = manifest.availabilityStartTime {
                report.startHoldBack = JSONOutput.seconds(edge - (origin + manifest.periodStart + first.segment.start))
            }
        }
        report.mpdReloads = max(reads.count - 1, 0)
        report.reloadIntervals = zip(reads, reads.dropFirst()).prefix(100).map { JSONOutput.seconds($1 - $0) }
        judgeReloads(&report, reads: reads, end: end)
        return report
    }

    private func judgeReloads(_ report: inout DASHLiveReport, reads: [Double], end: Double) {
        guard manifest.isDynamic, let period = manifest.minimumUpdatePeriod, !reads.isEmpty else { return }
        let allowed = max(period * 1.5, period + 1)
        for (before, after) in zip(reads, reads.dropFirst() + [end]) where after - before > allowed {
            report.add(
                .reloadLate, at: after, url: manifestURL,
                message: "The player did not reload \(manifestURL) for \(TextFormat.seconds(after - before)) (from \(TextFormat.seconds(before)) into the check), though its minimumUpdatePeriod is \(TextFormat.seconds(period)).")
        }
        let early = zip(reads, reads.dropFirst()).filter { $1 - $0 < period / 2 }
        if let first = early.first {
            report.add(
                .reloadEarly, at: first.1, url: manifestURL,
                message: "The player reloaded \(manifestURL) \(early.count == 1 ? "once" : "\(early.count) times") sooner than half its minimumUpdatePeriod of \(TextFormat.seconds(period)) (first after \(TextFormat.seconds(first.1 - first.0))), when it cannot have changed.")
            report.counts[.reloadEarly] = early.count
        }
    }

    private func judgeWindow(_ report: inout DASHLiveReport, end: Double) {
        guard manifest.isDynamic, let depth = manifest.timeShiftBufferDepth,
            let timing = manifest.representations.first(where: { !$0.timeline.isEmpty })
        else { return }
        let scale = Double(timing.timescale)
        let listed = timing.timeline.reduce(0.0) { $0 + Double($1.duration) / scale }
        report.listedWindow = JSONOutput.seconds(listed)
        let longest = (timing.timeline.map(\.duration).max()).map { Double($0) / scale } ?? 0
        let age = manifest.availabilityStartTime.map { unixAtStart + clockOffset - $0 } ?? .infinity
        if listed > depth + longest || (listed < depth - longest && age > depth + longest) {
            report.add(
                .windowMismatch, at: 0, url: manifestURL,
                message: "\(manifestURL) lists \(TextFormat.seconds(listed)) of segments for Representation \(timing.id), but its timeShiftBufferDepth is \(TextFormat.seconds(depth)).")
        }
    }
}
