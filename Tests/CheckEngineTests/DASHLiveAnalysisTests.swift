import CheckEngine
import MediaIO
import PlaybackModel
import Testing

/// A live manifest as FFmpeg's dash muxer writes it with `-use_timeline 0`: 1 s segments numbered from 1,
/// available from `start` (Unix seconds), 0.8 s early access, a 10 s window, reloads every 2 s.
private func templateManifest(start: String = "2026-01-01T00:00:00Z", offset: String = "0.800") throws -> DASHLiveManifest {
    try DASHLiveManifest.parse(Array("""
        <MPD type="dynamic" availabilityStartTime="\(start)" minimumUpdatePeriod="PT2S" timeShiftBufferDepth="PT10S">
        <ServiceDescription><Latency target="3000"/></ServiceDescription>
        <Period start="PT0S"><AdaptationSet contentType="video"><Representation id="0" bandwidth="1">
        <SegmentTemplate timescale="1000" duration="1000" startNumber="1" availabilityTimeOffset="\(offset)" media="chunk-$RepresentationID$-$Number%05d$.m4s"/>
        </Representation></AdaptationSet></Period></MPD>
        """.utf8))
}

private let origin = ProgramDateTime.parse("2026-01-01T00:00:00Z")!
private let manifestURL = "http://127.0.0.1:1/live.mpd"

/// The URL of segment `number`.
private func segment(_ number: Int) -> String { "http://127.0.0.1:1/chunk-0-\(String(format: "%05d", number)).m4s" }

/// An analysis of the template manifest for a check that began 20 s after the stream's start.
private func analysis(clockOffset: Double = 0) throws -> DASHLiveAnalysis {
    var analysis = DASHLiveAnalysis(
        manifest: try templateManifest(), manifestURL: manifestURL, manifestURLs: [manifestURL], unixAtStart: origin + 20)
    analysis.clockOffset = clockOffset
    return analysis
}

@Suite("Live DASH rules, as a pure function of the manifest and the player's requests")
struct DASHLiveAnalysisTests {
    @Test("A segment asked for more than its availabilityTimeOffset early is early_request; one asked for in time is not")
    func earlyRequests() throws {
        let rules = try analysis()
        // Segment 21 covers [20, 21) s and may be requested from 20.2 s (its end less 0.8 s).
        let requests = [
            RequestLog.Entry(url: segment(21), unixTime: origin + 20.25, status: 0),
            RequestLog.Entry(url: segment(22), unixTime: origin + 20.5, status: 0),
            RequestLog.Entry(url: segment(22), unixTime: origin + 20.51, status: 404),
        ]
        let report = rules.report(requests, end: 8, base: DASHLiveReport(manifest: manifestURL))
        #expect(report.segmentsRequested == 2)
        #expect(report.counts[.earlyRequest] == 1)
        #expect(report.events.first?.url == segment(22))
        #expect(report.events.first?.message.contains("0.700 s before it was available") == true)
        // The 404 of an early request is the early request, not a missing segment.
        #expect(report.counts[.missingSegment] == 0)
        #expect(report.startSegment == 21)
        // When 21 was asked for (at 20.25 s), it was open early and held media up to then: 0.25 s behind.
        #expect(report.startHoldBack == 0.25)
    }

    @Test("The stream's clock decides: the same request is early on a server clock 1 s behind")
    func clockOffsetCounts() throws {
        let requests = [RequestLog.Entry(url: segment(21), unixTime: origin + 20.5, status: 0)]
        #expect(try analysis().report(requests, end: 8, base: DASHLiveReport(manifest: manifestURL)).counts[.earlyRequest] == 0)
        #expect(try analysis(clockOffset: -1).report(requests, end: 8, base: DASHLiveReport(manifest: manifestURL)).counts[.earlyRequest] == 1)
    }

    @Test("An error answer for a segment inside its availability window is missing_segment; outside the window it is not")
    func missingSegments() throws {
        let rules = try analysis()
        let requests = [
            // Segment 15 ([14, 15) s) is available from 14.2 s to 25 s: asked for at 20 s, answered 404.
            RequestLog.Entry(url: segment(15), unixTime: origin + 20, status: 0),
            RequestLog.Entry(url: segment(15), unixTime: origin + 20.01, status: 404),
            // Segment 5 ([4, 5) s) left the window at 15 s.
            RequestLog.Entry(url: segment(5), unixTime: origin + 20.1, status: 0),
            RequestLog.Entry(url: segment(5), unixTime: origin + 20.11, status: 404),
        ]
        let report = rules.report(requests, end: 8, base: DASHLiveReport(manifest: manifestURL))
        #expect(report.counts[.missingSegment] == 1)
        #expect(report.events.map(\.url) == [segment(15)])
        #expect(report.events.first?.message == "\(manifestURL) lists \(segment(15)), inside its availability window, but it answered HTTP 404.")
        #expect(report.startSegment == nil)
    }

    @Test("Reloads are the manifest's reads after the first; a gap over 1.5x minimumUpdatePeriod is reload_late")
    func reloads() throws {
        let rules = try analysis()
        let reads = [0.0, 2.0, 4.1, 9.0].map { RequestLog.Entry(url: manifestURL, unixTime: origin + 20 + $0, status: 0) }
        let report = rules.report(reads, end: 10, base: DASHLiveReport(manifest: manifestURL))
        #expect(report.mpdReloads == 3)
        #expect(report.reloadIntervals == [2, 2.1, 4.9])
        #expect(report.counts[.reloadLate] == 1)
        #expect(report.events.first?.at == 9)
        #expect(report.counts[.reloadEarly] == 0)
        // Reloads in bursts (FFmpeg 5.1 reloads a SegmentTimeline manifest before every segment, several
        // times): each too-early one counted, one listed.
        let bursts = [0.0, 0.01, 0.02, 1.5, 1.51].map { RequestLog.Entry(url: manifestURL, unixTime: origin + 20 + $0, status: 0) }
        let burst = rules.report(bursts, end: 2, base: DASHLiveReport(manifest: manifestURL))
        #expect(burst.counts[.reloadEarly] == 3 && burst.mpdReloads == 4)
        #expect(burst.events.filter { $0.kind == "reload_early" }.count == 1)
        // No reload at all in a sample longer than the allowance is late too (FFmpeg 5.1 with @duration
        // addressing never reloads).
        let once = rules.report(Array(reads.prefix(1)), end: 8, base: DASHLiveReport(manifest: manifestURL))
        #expect(once.mpdReloads == 0 && once.counts[.reloadLate] == 1)
    }

    @Test("A SegmentTimeline listing more than timeShiftBufferDepth is window_mismatch")
    func windowAgainstDepth() throws {
        func report(depth: String) throws -> DASHLiveReport {
            let manifest = try DASHLiveManifest.parse(Array("""
                <MPD type="dynamic" availabilityStartTime="2026-01-01T00:00:00Z" timeShiftBufferDepth="\(depth)">
                <Period><AdaptationSet contentType="video"><Representation id="v" bandwidth="1">
                <SegmentTemplate timescale="10" startNumber="100" media="v-$Number$.m4s">
                <SegmentTimeline><S t="1000" d="20" r="9"/></SegmentTimeline></SegmentTemplate>
                </Representation></AdaptationSet></Period></MPD>
                """.utf8))
            let rules = DASHLiveAnalysis(manifest: manifest, manifestURL: manifestURL, manifestURLs: [], unixAtStart: origin + 3600)
            return rules.report([], end: 1, base: DASHLiveReport(manifest: manifestURL))
        }
        // Ten 2 s segments: 20 s listed.
        #expect(try report(depth: "PT20S").counts[.windowMismatch] == 0)
        #expect(try report(depth: "PT10S").counts[.windowMismatch] == 1)
        #expect(try report(depth: "PT60S").counts[.windowMismatch] == 1)
        #expect(try report(depth: "PT10S").listedWindow == 20)
    }

    @Test("Events stop being listed at 100 but every problem is counted")
    func boundedEvents() throws {
        let rules = try analysis()
        let requests = (100..<400).map { RequestLog.Entry(url: segment($0), unixTime: origin + 20, status: 0) }
        let report = rules.report(requests, end: 1, base: DASHLiveReport(manifest: manifestURL))
        #expect(report.counts[.earlyRequest] == 300)
        #expect(report.events.count == DASHLiveReport.maximumEvents)
        #expect(report.eventsLeftOut == 200)
    }

    @Test("Missing segments inside the window make the verdict degraded, naming the first")
    func verdict() throws {
        var dash = DASHLiveReport(manifest: manifestURL)
        dash.add(.earlyRequest, at: 1, url: segment(30), message: "early")
        var qoe = QoEReport()
        qoe.started = true
        qoe.startupDelay = 0.5
        var measured = Verdict.Measurements(source: manifestURL, qoe: qoe)
        measured.dashLive = dash
        #expect(Verdict.decide(measured).verdict == .pass)
        dash.add(.missingSegment, at: 2, url: segment(15), message: "missing")
        measured.dashLive = dash
        let decided = Verdict.decide(measured)
        #expect(decided.verdict == .degraded)
        #expect(decided.reason.contains("did not serve a segment its live manifest lists as available (first: \(segment(15)))"))
    }
}
