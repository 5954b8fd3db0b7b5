import Foundation
import MediaIO

// A live DASH input (the manifest and its clock read before FFmpeg opens it, the media placed on that
// clock at the first packet, FFmpeg's requests judged at the end) and the LL-HLS path (the monitor fed
// by the client's loads and parts), as the machine's rules.
extension CheckMachine {
    /// A live DASH input's rules and what they were fed.
    struct DASHLive: Sendable {
        /// The rules, with the manifest and clock.
        var analysis: DASHLiveAnalysis
        /// The report's fixed part (manifest, clock).
        var base: DASHLiveReport
        /// Warnings from setting up (no usable clock).
        var warnings: [String]
        /// FFmpeg's requests so far, and how many it could not log.
        var requests: [RequestLog.Entry] = []
        var dropped = 0
        /// Whether the player's start was noted.
        var startNoted = false
    }

    /// The LL-HLS path's rules.
    struct Parts: Sendable {
        /// The rules.
        var monitor: LowLatencyMonitor
        /// The hold-back aimed at and its rule's name, for the latency.
        var target: (seconds: Double?, rule: String)
        /// The last failed request's sentence (the one that stopped the client).
        var failure: String?
    }

    /// A live DASH manifest was read (`OpeningReads.prepareDASHLive`): tells the latency which clock,
    /// window and target apply, and starts judging FFmpeg's requests.
    mutating func startDASHLive(_ read: CheckEvent.DASHManifestRead, at: Double) {
        guard let manifest = try? DASHLiveManifest.parse(Array(read.text.utf8)), manifest.isDynamic else { return }
        let readAt = live.unixAtStart + read.readAt
        var analysis = DASHLiveAnalysis(
            manifest: manifest, manifestURL: read.location, manifestURLs: [read.requested, source],
            unixAtStart: live.unixAtStart)
        var base = DASHLiveReport(manifest: read.location)
        if let timing = read.timing {
            analysis.clockOffset = timing.offset
            base.clock = "utc_timing \(timing.scheme) \(timing.value)"
        }
        if let problem = read.clockProblem {
            let sentence = "\(read.location) gives no usable clock (\(problem)), so its availability times are read against this machine's clock."
            base.add(.clockUnavailable, at: at, url: read.location, message: sentence)
        }
        live.useClock(base.clock, offset: analysis.clockOffset)
        live.basis("availability_time")
        if let depth = manifest.timeShiftBufferDepth { live.window(seconds: depth) }
        let target = Self.dashTarget(manifest)
        live.holdBack(applied: nil, target: target.seconds, rule: target.rule)
        if let edge = analysis.edge(at: readAt + analysis.clockOffset) { live.edge(unixTime: edge, at: at) }
        // Media time is the segments' own decode times, which start at 0 at availabilityStartTime less the
        // presentation time offset: measured on FFmpeg 5.1's muxer output (`-f dash -streaming 1 -ldash 1`,
        // 1 s segments), segment 3 ([2, 3) s of the period) starts at video dts 2.000 s and audio 1.997 s,
        // and FFmpeg's dash demuxer returns those timestamps unchanged.
        if let origin = manifest.availabilityStartTime,
            let timing = manifest.representations.first(where: { $0.kind == .video }) ?? manifest.representations.first
        {
            let offset = Double(timing.presentationTimeOffset) / Double(timing.timescale)
            live.anchor(mediaTime: offset, unixTime: origin + manifest.periodStart)
        }
        dash = DASHLive(analysis: analysis, base: base, warnings: base.events.map(\.message))
    }

    /// The latency a live manifest asks for and the rule's name: `suggestedPresentationDelay`, else
    /// `ServiceDescription Latency@target`.
    static func dashTarget(_ manifest: DASHLiveManifest) -> (seconds: Double?, rule: String?) {
        if let delay = manifest.suggestedPresentationDelay { return (delay, "suggestedPresentationDelay") }
        if let target = manifest.targetLatency { return (target, "ServiceDescription Latency@target") }
        return (nil, nil)
    }

    /// The first packet of a played stream: the hold-back FFmpeg applied is how far the start of the first
    /// segment it requested (and did not fail) was behind the edge when it was requested. (FFmpeg may start
    /// each representation at a different number: it computes each from the time it first reads it.)
    mutating func noteDASHLiveStart() {
        guard let setup = dash, !setup.startNoted else { return }
        dash?.startNoted = true
        guard let origin = setup.analysis.manifest.availabilityStartTime, let first = setup.analysis.firstPlayed(setup.requests)
        else { return }
        let start = origin + setup.analysis.manifest.periodStart + first.segment.start
        let target = Self.dashTarget(setup.analysis.manifest)
        if let edge = setup.analysis.edge(at: first.unixTime, of: first.timing) {
            live.holdBack(applied: edge - start, target: target.seconds, rule: target.rule)
            live.edge(unixTime: edge, at: first.unixTime - setup.analysis.clockOffset - live.unixAtStart)
        }
    }

    /// `dash_live` and its warnings, from the requests FFmpeg sent up to `end`.
    mutating func addDASHLive(end: Double) {
        guard let setup = dash, report.dashLive == nil else { return }
        if let edge = setup.analysis.edge(at: live.unixAtStart + end + setup.analysis.clockOffset) {
            live.edge(unixTime: edge, at: end)
        }
        var result = setup.analysis.report(setup.requests, end: end, base: setup.base)
        result.requestsNotSeen = setup.dropped
        report.dashLive = result
        report.warnings += setup.warnings
        // At most three sentences of a kind (FFmpeg 5.1 asks for every segment early): the rest are counted.
        for kind in DASHLiveReport.Kind.allCases where kind != .clockUnavailable {
            let events = result.events.filter { $0.kind == kind.rawValue }
            report.warnings += events.prefix(3).map(\.message)
            let more = result.counts[kind] - min(events.count, 3)
            if more > 0, kind != .reloadEarly {
                report.warnings.append("\(more) more \(kind.rawValue) of \(setup.analysis.manifestURL) are counted in dash_live.counts.")
            }
        }
    }

    /// This machine's clock (Unix seconds) when the check began.
    package var unixAtStart: Double { live.unixAtStart }

    /// How many of FFmpeg's DASH requests were handed over so far.
    package var dashRequestsSeen: Int { dash?.requests.count ?? 0 }

    /// The LL-HLS path was taken for the media playlist at `url`, first loaded as `first`: the start
    /// follows `--live-start`, with `PART-HOLD-BACK` for its default.
    mutating func startParts(url: String, first: HLSPlaylist, at: Double) {
        let (holdBack, rule) = LowLatencyPlayback.start(settings.liveStart, in: first)
        var monitor = LowLatencyMonitor(playlist: url)
        monitor.loaded(first, url: url, at: at, seconds: 0, asked: nil)
        parts = Parts(monitor: monitor, target: (holdBack.isFinite ? holdBack : nil, rule))
        live.basis("program_date_time")
        LowLatencyPlayback.feedEdge(of: first, to: &live, at: at)
    }

    /// Adds the `low_latency` section and its problems (as warnings) to the report.
    mutating func addLowLatency() {
        guard let parts, report.lowLatency == nil else { return }
        let section = parts.monitor.finalReport
        report.lowLatency = section
        report.warnings += section.events.map(\.message)
    }
}
