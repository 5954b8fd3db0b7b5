import BufprobeCommands
@testable import CheckEngine
import PlaybackModel
import Testing

@Suite("Verdict.decide: the check's verdict from its measurements alone")
struct VerdictTests {
    /// A check of `x` that started after `startup` s, with `stalls` stalls of 1 s from media time 3.
    static func measured(startup: Double = 0.5, stalls: Int = 0, change: (inout Verdict.Measurements) -> Void = { _ in })
        -> Verdict.Measurements
    {
        var qoe = QoEReport()
        qoe.started = true
        qoe.startupDelay = startup
        qoe.stalls = (0..<stalls).map { QoEReport.Stall(position: 3 + Double($0), start: 4, duration: 1) }
        qoe.stallTime = Double(stalls)
        var measured = Verdict.Measurements(source: "x", qoe: qoe)
        change(&measured)
        return measured
    }

    static let table: [(String, Verdict.Measurements, CheckVerdict, String)] = [
        ("clean", measured { $0.realtimeFactor = 4 }, .pass, "x started in 0.500 s and played without stalling, received at 4.0x real time."),
        ("sampled", measured { $0.sampled = true; $0.sampledDuration = 30 }, .pass, "during the 30.000 s sampled"),
        ("failure wins", measured(stalls: 2) { $0.failure = "x ended early." }, .fail, "x ended early."),
        ("never started", { var m = measured(); m.qoe.started = false; m.sampledDuration = 10; return m }(), .degraded,
            "x did not start: 1.000 s of media never arrived in the 10.000 s sampled."),
        // What the origin failed to serve is said with it: most often it is why.
        ("never started, origin broken", {
            var m = measured { $0.brokenPlaylists = [("http://h/a.m3u8", 404)]; $0.stalePlaylists = [("http://h/live.m3u8", 6.5)] }
            m.qoe.started = false
            m.sampledDuration = 8
            return m
        }(), .degraded,
            "x did not start: 1.000 s of media never arrived in the 8.000 s sampled; it lists a variant playlist it cannot serve (http://h/a.m3u8 answered HTTP 404) and has a playlist that stopped updating"),
        ("one stall", measured(stalls: 1), .degraded, "stalled once for 1.000 s in total (first at media time 3.000 s)"),
        ("two stalls", measured(stalls: 2), .degraded, "stalled 2 times"),
        ("slow start", measured(startup: 4), .degraded, "took 4.000 s to start, more than the 3.000 s allowed (--max-startup)"),
        ("peak", measured { $0.declaredVariantBitRate = 1_000_000; $0.peakBitRate = 1_200_000 }, .degraded, "more than 10% above its declared BANDWIDTH"),
        ("peak within 10%", measured { $0.declaredVariantBitRate = 1_000_000; $0.peakBitRate = 1_090_000 }, .pass, "played without stalling"),
        ("slow", measured { $0.realtimeFactor = 0.5 }, .degraded, "arrived slower than real time (0.50x, below --min-realtime-factor 1)"),
        ("hole", measured { $0.received = [TimeRange(start: 0, end: 4), TimeRange(start: 7, end: 10)] }, .degraded,
            "has a 3.000 s hole in its media at 4.000 s"),
        ("broken playlist", measured { $0.brokenPlaylists = [("http://h/a.m3u8", 404), ("http://h/a.m3u8", 404)] }, .degraded,
            "x lists a variant playlist it cannot serve (http://h/a.m3u8 answered HTTP 404)."),
        ("skipped resource", measured { $0.skippedResources = [("http://h/v1.m3u8", "sent nothing for 5.000 s")] }, .degraded,
            "x leads to http://h/v1.m3u8, which sent nothing for 5.000 s."),
        ("stale playlist", measured { $0.stalePlaylists = [("http://h/live.m3u8", 6.5)] }, .degraded,
            "x has a playlist that stopped updating for more than 1.5x its target duration (http://h/live.m3u8, found at 6.500 s)."),
        ("mislabelled variants", measured { $0.variantProblems = [(0, [.resolutionMismatch]), (1, []), (2, [.codecsMismatch, .bandwidthExceeded])] },
            .degraded, "x has variants that are not what its master playlist declares (variant 0: resolution_mismatch; variant 2: codecs_mismatch, bandwidth_exceeded)."),
        ("failed variant playlist", measured { $0.variantProblems = [(3, [.playlistFailed])] }, .degraded, "(variant 3: playlist_failed)"),
        ("failed variant segment", measured { $0.variantProblems = [(1, [.segmentFailed])] }, .degraded, "(variant 1: segment_failed)"),
        ("every variant as declared", measured { $0.variantProblems = [(0, []), (1, [])] }, .pass, "played without stalling"),
        ("several", measured(startup: 4, stalls: 1) { $0.realtimeFactor = 0.5 }, .degraded, ", took 4.000 s to start, more than the 3.000 s allowed (--max-startup) and arrived slower"),
        // --max-origin-faults: a team that accepts an origin's faults passes, and the pass names them.
        ("faults within --max-origin-faults", measured {
            $0.brokenPlaylists = [("http://h/a.m3u8", 404)]; $0.stalePlaylists = [("http://h/live.m3u8", 6.5)]
            $0.thresholds.maxOriginFaults = 2
        }, .pass, "played without stalling; it lists a variant playlist it cannot serve (http://h/a.m3u8 answered HTTP 404) and has a playlist that stopped updating for more than 1.5x its target duration (http://h/live.m3u8, found at 6.500 s) (2 origin faults, within --max-origin-faults 2)."),
        ("faults over --max-origin-faults", measured {
            $0.brokenPlaylists = [("http://h/a.m3u8", 404)]; $0.skippedResources = [("http://h/v1.m3u8", "sent nothing for 5.000 s")]
            $0.thresholds.maxOriginFaults = 1
        }, .degraded, "and has 2 origin faults in all (more than --max-origin-faults 1)."),
        ("faults not limited", measured {
            $0.skippedResources = [("http://h/v1.m3u8", "sent nothing for 5.000 s")]
            $0.thresholds.maxOriginFaults = nil
        }, .pass, "(1 origin fault, within --max-origin-faults none)."),
    ]

    @Test("each measurement gives its verdict and names itself in the reason", arguments: table)
    func decide(name: String, measured: Verdict.Measurements, verdict: CheckVerdict, reason: String) {
        let decided = Verdict.decide(measured)
        #expect(decided.verdict == verdict, "\(name)")
        #expect(decided.reason.contains(reason), "\(name): \(decided.reason)")
    }
}
