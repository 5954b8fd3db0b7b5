import Foundation
import MediaIO

// A live DASH input: the manifest and its clock read before FFmpeg opens it, the media placed on that
// clock at the first packet, and the player's requests judged at the end (`DASHLiveAnalysis`).
extension CheckSession {
    /// For a remote DASH input: reads the manifest before FFmpeg does (one more request, counted in
    /// `open_time`), and when it is live (`type="dynamic"`) reads its `UTCTiming` clock once (both within
    /// `prereadBudget`, through the same protocol whitelist, pace and request policy as the input), tells the
    /// latency watch which clock, window and target apply, and starts logging FFmpeg's requests.
    /// Nothing for other inputs, or when the manifest cannot be read (FFmpeg's open then says why).
    ///
    /// Why the player's own requests are judged rather than bufprobe reloading the manifest itself at
    /// `minimumUpdatePeriod`: the questions (did the player reload in time, did it ask for segments before
    /// they existed, which listed segment was missing) are about what the player did and what the origin
    /// answered it; a second reader would double the origin's load and measure bufprobe instead.
    func prepareDASHLive() {
        guard InputKind(source).isNetwork, ContainerFormat(namedBy: source) == .dash else { return }
        let deadline = prereadDeadline()
        defer { deadline.finish() }
        let reader = deadline.interrupter
        let requested = InputKind.ffmpegURL(for: settings.requestURL(for: source))
        let bytes: [UInt8]
        let location: String
        do {
            let resource = try ResourceReader(url: requested, options: settings.formatOptions, interrupter: reader)
            bytes = try resource.readAll()
            location = resource.location
        } catch {
            return
        }
        let readAt = live.unixAtStart + now()
        guard let manifest = try? DASHLiveManifest.parse(bytes), manifest.isDynamic else { return }
        var analysis = DASHLiveAnalysis(
            manifest: manifest, manifestURL: location, manifestURLs: [requested, source], unixAtStart: live.unixAtStart)
        var base = DASHLiveReport(manifest: location)
        var warnings: [String] = []
        let (timing, skipped) = manifest.usableUTCTiming
        var clockProblem: String?
        if let timing {
            switch UTCTimingSource.offset(
                of: timing, manifestURL: location, manifestReadAt: readAt, options: settings.formatOptions, interrupter: reader)
            {
            case .success(let reading):
                analysis.clockOffset = reading.offset
                base.clock = "utc_timing \(timing.schemeIdUri) \(timing.value)"
            case .failure(let error):
                clockProblem = error.reason
            }
        } else if let scheme = skipped.first {
            clockProblem = "its only UTCTiming scheme, \(scheme), is not one bufprobe reads"
        } else {
            clockProblem = "it has no UTCTiming element"
        }
        if let clockProblem {
            let sentence = "\(location) gives no usable clock (\(clockProblem)), so its availability times are read against this machine's clock."
            base.add(.clockUnavailable, at: now(), url: location, message: sentence)
        }
        live.useClock(base.clock, offset: analysis.clockOffset)
        live.basis("availability_time")
        if let depth = manifest.timeShiftBufferDepth { live.window(seconds: depth) }
        let target = Self.dashTarget(manifest)
        live.holdBack(applied: nil, target: target.seconds, rule: target.rule)
        if let edge = analysis.edge(at: readAt + analysis.clockOffset) { live.edge(unixTime: edge, at: now()) }
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
        warnings += base.events.map(\.message)
        dash.start(DASHLiveWatch.Setup(analysis: analysis, base: base, warnings: warnings))
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
    func noteDASHLiveStart() {
        guard dash.claimAnchor(), let setup = dash.setup, let origin = setup.analysis.manifest.availabilityStartTime,
            let first = setup.analysis.firstPlayed(dash.requestLog.entries)
        else { return }
        let start = origin + setup.analysis.manifest.periodStart + first.segment.start
        let target = Self.dashTarget(setup.analysis.manifest)
        if let edge = setup.analysis.edge(at: first.unixTime, of: first.timing) {
            live.holdBack(applied: edge - start, target: target.seconds, rule: target.rule)
            live.edge(unixTime: edge, at: first.unixTime - setup.analysis.clockOffset - live.unixAtStart)
        }
    }

    /// `dash_live` and its warnings, from the requests FFmpeg sent up to now. On the reading thread (the
    /// request log ends here).
    func addDASHLive(to report: inout CheckReport) {
        guard let setup = dash.setup else { return }
        dash.requestLog.end()
        let end = now()
        if let edge = setup.analysis.edge(at: live.unixAtStart + end + setup.analysis.clockOffset) {
            live.edge(unixTime: edge, at: end)
        }
        var result = setup.analysis.report(dash.requestLog.entries, end: end, base: setup.base)
        result.requestsNotSeen = dash.requestLog.dropped
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
}
