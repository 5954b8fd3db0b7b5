import Foundation
import MediaIO
import Testing

/// `text` as a live manifest's bytes, parsed.
private func parse(_ text: String) throws -> DASHLiveManifest { try DASHLiveManifest.parse(Array(text.utf8)) }

@Suite("DASH live manifests")
struct DASHLiveManifestTests {
    /// What FFmpeg 5.1's dash muxer wrote with `-streaming 1 -ldash 1 -seg_duration 1 -use_timeline 0
    /// -window_size 10 -utc_timing_url ... -target_latency 3` (trimmed).
    static let ffmpegLowLatency = """
        <?xml version="1.0" encoding="utf-8"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" minimumUpdatePeriod="PT500S"
          availabilityStartTime="2026-11-26T23:20:55.086Z" publishTime="2026-11-26T23:20:59.055Z"
          timeShiftBufferDepth="PT10.0S" maxSegmentDuration="PT1.0S" minBufferTime="PT1.0S">
          <ServiceDescription id="0"><Latency target="3000" referenceId="1"/></ServiceDescription>
          <Period id="0" start="PT0.0S">
            <AdaptationSet id="0" contentType="video">
              <Representation id="0" mimeType="video/mp4" codecs="avc1.42c00c" bandwidth="626544" width="320" height="180">
                <SegmentTemplate timescale="1000000" duration="1000000" availabilityTimeOffset="0.800"
                  availabilityTimeComplete="false" initialization="init-stream$RepresentationID$.m4s"
                  media="chunk-stream$RepresentationID$-$Number%05d$.m4s" startNumber="1"/>
              </Representation>
            </AdaptationSet>
            <AdaptationSet id="1" contentType="audio">
              <Representation id="1" mimeType="audio/mp4" codecs="mp4a.40.2" bandwidth="69000">
                <SegmentTemplate timescale="1000000" duration="1000000" availabilityTimeOffset="0.800"
                  media="chunk-stream$RepresentationID$-$Number%05d$.m4s" startNumber="1"/>
              </Representation>
            </AdaptationSet>
          </Period>
          <UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-xsdate:2014" value="http://127.0.0.1:8080/time"/>
        </MPD>
        """

    @Test("FFmpeg's low-latency live manifest: type, dates, durations, target latency, UTCTiming, template timing")
    func ffmpegLowLatencyManifest() throws {
        let live = try parse(Self.ffmpegLowLatency)
        #expect(live.isDynamic)
        #expect(live.availabilityStartTime == ProgramDateTime.parse("2026-11-26T23:20:55.086Z"))
        #expect(live.publishTime == ProgramDateTime.parse("2026-11-26T23:20:59.055Z"))
        #expect(live.minimumUpdatePeriod == 500)
        #expect(live.timeShiftBufferDepth == 10)
        #expect(live.suggestedPresentationDelay == nil)
        #expect(live.targetLatency == 3)
        #expect(live.utcTimings.map(\.scheme) == [.httpXSDate])
        #expect(live.usableUTCTiming.timing?.value == "http://127.0.0.1:8080/time")
        #expect(live.representations.count == 2)
        let video = try #require(live.representations.first)
        #expect(video.kind == .video && video.timescale == 1_000_000 && video.duration == 1_000_000 && video.startNumber == 1)
        #expect(video.availabilityTimeOffset == 0.8 && video.availabilityTimeComplete == false)
        #expect(video.media == "chunk-stream0-$Number%05d$.m4s")
    }

    @Test("A segment URL maps to its number and period time; availability is its end less availabilityTimeOffset")
    func segmentAvailability() throws {
        let live = try parse(Self.ffmpegLowLatency)
        let video = try #require(live.representations.first)
        let manifest = "http://127.0.0.1:8080/live/live.mpd"
        let segment = try #require(video.segment(url: "http://127.0.0.1:8080/live/chunk-stream0-00006.m4s", manifestURL: manifest))
        #expect(segment.number == 6 && segment.start == 5 && segment.duration == 1)
        let ast = try #require(live.availabilityStartTime)
        let start = try #require(live.availabilityStart(of: segment, in: video))
        #expect(abs(start - (ast + 6 - 0.8)) < 1e-6)
        #expect(abs((live.availabilityEnd(of: segment) ?? 0) - (ast + 6 + 10)) < 1e-6)
        // Another representation's segment, or another file, is not this one's.
        #expect(video.segment(url: "http://127.0.0.1:8080/live/chunk-stream1-00006.m4s", manifestURL: manifest) == nil)
        #expect(video.segment(url: "http://127.0.0.1:8080/live/chunk-stream0-0000x.m4s", manifestURL: manifest) == nil)
        // The edge: 7.3 s after the start, with 0.8 s early access, segments up to 8 (ending at 8 s) are out,
        // and the newest holds media up to now; 7.1 s after, only up to 7 (ending at 7 s).
        #expect(abs((live.edge(of: video, at: ast + 7.3) ?? 0) - (ast + 7.3)) < 1e-6)
        #expect(abs((live.edge(of: video, at: ast + 7.1) ?? 0) - (ast + 7)) < 1e-6)
    }

    @Test("A SegmentTimeline with $Time$: times, repeats, the presentation time offset, and extrapolation past its end")
    func timeline() throws {
        let live = try parse("""
            <MPD type="dynamic" availabilityStartTime="2026-01-01T00:00:00" timeShiftBufferDepth="PT1M" suggestedPresentationDelay="PT4.5S">
            <BaseURL availabilityTimeOffset="0.5">http://cdn.example/a/</BaseURL>
            <Period start="PT10S"><AdaptationSet mimeType="video/mp4">
            <SegmentTemplate timescale="10" presentationTimeOffset="100" availabilityTimeOffset="0.25" media="v-$Time$.m4s">
            <SegmentTimeline><S t="100" d="20" r="2"/><S d="10" r="-1"/></SegmentTimeline></SegmentTemplate>
            <Representation id="v" bandwidth="1"/></AdaptationSet></Period>
            <UTCTiming schemeIdUri="urn:mpeg:dash:utc:ntp:2014" value="pool.ntp.org"/>
            <UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-head:2014" value="http://cdn.example/"/>
            </MPD>
            """)
        #expect(live.availabilityStartTime == ProgramDateTime.parse("2026-01-01T00:00:00Z"))
        #expect(live.suggestedPresentationDelay == 4.5 && live.timeShiftBufferDepth == 60 && live.periodStart == 10)
        #expect(live.usableUTCTiming.timing?.scheme == .httpHead)
        #expect(live.usableUTCTiming.skipped == ["urn:mpeg:dash:utc:ntp:2014"])
        let video = try #require(live.representations.first)
        #expect(video.timeline.map(\.time) == [100, 120, 140, 160])
        #expect(video.availabilityTimeOffset == 0.75)
        let third = try #require(video.segment(url: "http://cdn.example/a/v-140.m4s", manifestURL: "http://x/live.mpd"))
        #expect(third.start == 4 && third.duration == 2 && third.listed)
        let beyond = try #require(video.segment(time: 170))
        #expect(beyond.start == 7 && beyond.duration == 1 && !beyond.listed)
    }

    @Test("Hostile values are refused with a sentence, not trusted", arguments: [
        #"<MPD type="dynamic" availabilityStartTime="yesterday"/>"#,
        #"<MPD type="dynamic" timeShiftBufferDepth="P9999999DT1S"/>"#,
        #"<MPD type="dynamic" minimumUpdatePeriod="PT-1S"/>"#,
        #"<MPD><ServiceDescription><Latency target="-5"/></ServiceDescription></MPD>"#,
        #"<MPD><Period><AdaptationSet><Representation id="a"><SegmentTemplate timescale="0" media="$Number$"/></Representation></AdaptationSet></Period></MPD>"#,
        #"<MPD><Period><AdaptationSet><Representation id="a"><SegmentTemplate availabilityTimeOffset="nan" media="$Number$"/></Representation></AdaptationSet></Period></MPD>"#,
        #"<MPD><Period><AdaptationSet><Representation id="a"><SegmentTemplate media="$Time$"><SegmentTimeline><S t="9223372036854775800" d="100" r="3"/></SegmentTimeline></SegmentTemplate></Representation></AdaptationSet></Period></MPD>"#,
        #"<MPD><Period><AdaptationSet><Representation id="a"><SegmentTemplate media="$Time$"><SegmentTimeline><S d="1" r="900000000"/></SegmentTimeline></SegmentTemplate></Representation></AdaptationSet></Period></MPD>"#,
    ])
    func hostileValues(_ text: String) {
        #expect(throws: DASHManifestError.self) { try parse(text) }
    }

    @Test("A segment number below startNumber or far past the Int64 range maps to no segment")
    func hostileNumbers() throws {
        let live = try parse(Self.ffmpegLowLatency)
        let video = try #require(live.representations.first)
        #expect(video.segment(number: 0) == nil)
        #expect(video.segment(number: Int64.min) == nil)
        #expect(video.segment(url: "chunk-stream0-99999999999999999999999.m4s", manifestURL: "http://h/live.mpd") == nil)
    }
}

@Suite("A DASH manifest's UTCTiming read once")
struct UTCTimingSourceTests {
    @Test("direct: the value against when the manifest was read; a date in whole seconds is the middle of that second")
    func direct() throws {
        let timing = DASHLiveManifest.UTCTiming(schemeIdUri: "urn:mpeg:dash:utc:direct:2014", value: "2026-01-01T00:00:10Z")
        let readAt = try #require(ProgramDateTime.parse("2026-01-01T00:00:00Z"))
        let result = UTCTimingSource.offset(
            of: timing, manifestURL: "http://127.0.0.1:1/live.mpd", manifestReadAt: readAt, options: [:],
            interrupter: Interrupter(timeout: .seconds(1)))
        #expect(try result.get().offset == 10.5)
        let precise = DASHLiveManifest.UTCTiming(schemeIdUri: "urn:mpeg:dash:utc:direct:2012", value: "2026-01-01T00:00:10.250Z")
        let fraction = UTCTimingSource.offset(
            of: precise, manifestURL: "http://127.0.0.1:1/live.mpd", manifestReadAt: readAt, options: [:],
            interrupter: Interrupter(timeout: .seconds(1)))
        #expect(try fraction.get().offset == 10.25)
    }

    @Test("Schemes bufprobe does not read say so, without a request", arguments: [
        ("urn:mpeg:dash:utc:ntp:2014", "NTP"),
        ("urn:mpeg:dash:utc:http-head:2014", "http-head"),
        ("urn:example:clock", "not one bufprobe knows"),
        ("urn:mpeg:dash:utc:direct:2014", "not a date"),
    ])
    func unsupported(_ scheme: String, _ sentence: String) {
        let timing = DASHLiveManifest.UTCTiming(schemeIdUri: scheme, value: "pool.ntp.org")
        let result = UTCTimingSource.offset(
            of: timing, manifestURL: "http://127.0.0.1:1/live.mpd", manifestReadAt: 0, options: [:],
            interrupter: Interrupter(timeout: .seconds(1)))
        guard case .failure(let error) = result else {
            Issue.record("\(scheme) gave a clock")
            return
        }
        #expect(error.reason.contains(sentence), "\(error.reason)")
    }
}
