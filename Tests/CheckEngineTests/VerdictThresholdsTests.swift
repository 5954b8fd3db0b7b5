@testable import CheckEngine
import Foundation
import PlaybackModel
import Testing
import BufprobeOutput

/// `VerdictThresholds`: what each front end parses and validates, and how `Verdict.decide` applies it.
@Suite("Verdict thresholds")
struct VerdictThresholdsTests {
    /// A check of `x` that started after 0.5 s and played 40 s of wall time with `stalls` stalls of
    /// `each` seconds.
    static func measured(stalls: Int, each: Double = 0.5, _ change: (inout Verdict.Measurements) -> Void = { _ in })
        -> Verdict.Measurements
    {
        var qoe = QoEReport()
        qoe.started = true
        qoe.startupDelay = 0.5
        qoe.playedWallTime = 40
        qoe.stalls = (0..<stalls).map { QoEReport.Stall(position: 2 + 4 * Double($0), start: 3 + 4 * Double($0), duration: each) }
        qoe.stallTime = Double(stalls) * each
        var measured = Verdict.Measurements(source: "x", qoe: qoe)
        change(&measured)
        return measured
    }

    @Test("the defaults keep the historical rule: any stall is degraded, with the sentence as it always was")
    func defaultsUnchanged() {
        let decided = Verdict.decide(Self.measured(stalls: 1))
        #expect(decided.verdict == .degraded)
        #expect(decided.reason == "x stalled once for 0.500 s in total (first at media time 2.000 s).")
        #expect(Verdict.decide(Self.measured(stalls: 0)).verdict == .pass)
    }

    @Test("--max-stalls 1 --max-rebuffer-ratio 0.05 passes one short stall, saying so, and fails three naming --max-stalls")
    func stallsAndRatio() {
        let limits = VerdictThresholds(maxStalls: 1, maxRebufferRatio: 0.05)
        let one = Verdict.decide(Self.measured(stalls: 1) { $0.thresholds = limits })
        #expect(one.verdict == .pass, "\(one.reason)")
        #expect(one.reason == "x started in 0.500 s and stalled once for 0.500 s in total, within --max-stalls 1 and --max-rebuffer-ratio 5%.")
        let three = Verdict.decide(Self.measured(stalls: 3) { $0.thresholds = limits })
        #expect(three.verdict == .degraded)
        #expect(three.reason.contains("stalled 3 times (more than --max-stalls 1) for 1.500 s in total (first at media time 2.000 s)"), "\(three.reason)")
        #expect(!three.reason.contains("rebuffer ratio"), "1.5 s over 41.5 s is under 5%: \(three.reason)")
    }

    @Test("each threshold crossed is named with its value beside its figure", arguments: [
        (VerdictThresholds(maxStalls: 5, maxStallTime: 1), 3, "stalled 3 times for 1.500 s in total (more than --max-stall-time 1.000 s; first at media time 2.000 s)"),
        (VerdictThresholds(maxStalls: 5, maxRebufferRatio: 0.01), 3, "had a rebuffer ratio of 3.61% (more than --max-rebuffer-ratio 1%)"),
        (VerdictThresholds(maxStalls: 2, maxStallTime: 1), 3,
            "stalled 3 times (more than --max-stalls 2) for 1.500 s in total (more than --max-stall-time 1.000 s; first at media time 2.000 s)"),
    ])
    func crossed(limits: VerdictThresholds, stalls: Int, reason: String) {
        let decided = Verdict.decide(Self.measured(stalls: stalls) { $0.thresholds = limits })
        #expect(decided.verdict == .degraded)
        #expect(decided.reason.contains(reason), "\(decided.reason)")
    }

    @Test("--max-latency judges live_latency.max and --max-drift live_latency.drift; unmeasured, each is a warning, not a pass in silence")
    func latency() {
        let limits = VerdictThresholds(maxLatency: 10, maxDrift: 2)
        let late = Verdict.decide(Self.measured(stalls: 0) { $0.thresholds = limits; $0.latencyMax = 12.5; $0.latencyDrift = 1 })
        #expect(late.verdict == .degraded)
        #expect(late.reason == "x was up to 12.500 s behind the live edge (more than --max-latency 10.000 s).", "\(late.reason)")
        let drifting = Verdict.decide(Self.measured(stalls: 0) { $0.thresholds = limits; $0.latencyMax = 8; $0.latencyDrift = 3 })
        #expect(drifting.reason.contains("fell 3.000 s further behind the live edge during the check (more than --max-drift 2.000 s)"), "\(drifting.reason)")
        let within = Self.measured(stalls: 0) { $0.thresholds = limits; $0.latencyMax = 8; $0.latencyDrift = -1 }
        #expect(Verdict.decide(within).verdict == .pass)
        #expect(Verdict.unmeasured(within).isEmpty)
        let unmeasured = Self.measured(stalls: 0) { $0.thresholds = limits }
        #expect(Verdict.decide(unmeasured).verdict == .pass)
        #expect(Verdict.unmeasured(unmeasured).map { $0.prefix(25) } == ["--max-latency 10.000 s wa", "--max-drift 2.000 s was n"])
    }

    @Test("a threshold no figure can be compared with is refused with a sentence naming the option", arguments: [
        (VerdictThresholds(maxStalls: -1), "--max-stalls must not be negative, got -1."),
        (VerdictThresholds(maxStallTime: -0.5), "--max-stall-time must not be negative, got -0.500 s."),
        (VerdictThresholds(maxRebufferRatio: .nan), "--max-rebuffer-ratio must be a number, got nan."),
        (VerdictThresholds(maxRebufferRatio: 1.5), "--max-rebuffer-ratio is a fraction from 0 to 1 (0.05) or a percentage (5%), got 1.5."),
        (VerdictThresholds(maxLatency: .infinity), "--max-latency must be a number, got inf."),
        (VerdictThresholds(maxDrift: -1), "--max-drift must not be negative, got -1.000 s."),
        (VerdictThresholds(minRealtimeFactor: -0.5), "--min-realtime-factor must not be negative, got -0.5."),
        (VerdictThresholds(minRealtimeFactor: .nan), "--min-realtime-factor must be a number, got nan."),
    ])
    func invalid(thresholds: VerdictThresholds, sentence: String) {
        #expect(throws: VerdictThresholds.InvalidValue(description: sentence)) { try thresholds.validate() }
    }

    @Test("a ratio is a fraction or a percentage, and a stall count a whole number")
    func parsing() throws {
        #expect(try VerdictThresholds.ratio(parsing: "0.05") == 0.05)
        #expect(try VerdictThresholds.ratio(parsing: "5%") == 0.05)
        #expect(try VerdictThresholds.ratio(parsing: " 0.5 % ") == 0.005)
        #expect(try VerdictThresholds.count(parsing: "3") == 3)
        for bad in ["-0.1", "1.5", "120%", "nan", "inf", "", "5 percent"] {
            #expect(throws: VerdictThresholds.InvalidValue.self, "\(bad)") { try VerdictThresholds.ratio(parsing: bad) }
        }
        for bad in ["-1", "1.5", "x", ""] {
            #expect(throws: VerdictThresholds.InvalidValue.self, "\(bad)") { try VerdictThresholds.count(parsing: bad) }
        }
    }

    @Test("the JSON object has every threshold, null where not limited, and reads back")
    func json() throws {
        let thresholds = VerdictThresholds(maxStalls: 1, maxRebufferRatio: 0.05)
        let text = try JSONOutput.string(thresholds)
        #expect(text == """
            {
              "max_drift" : null,
              "max_hole" : 0,
              "max_latency" : null,
              "max_origin_faults" : 0,
              "max_peak_over_bandwidth" : 0.1,
              "max_rebuffer_ratio" : 0.05,
              "max_stall_time" : null,
              "max_stalls" : 1,
              "max_startup" : 3,
              "min_realtime_factor" : 1
            }
            """)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try decoder.decode(VerdictThresholds.self, from: Data(text.utf8)) == thresholds)
    }

    @Test("--min-realtime-factor: 1 by default names itself where media arrived slower than real time; relaxed, it passes saying so; 0 is no limit")
    func realtimeFactor() {
        let slow = Verdict.decide(Self.measured(stalls: 0) { $0.realtimeFactor = 0.77 })
        #expect(slow.verdict == .degraded)
        #expect(slow.reason == "x arrived slower than real time (0.77x, below --min-realtime-factor 1).", "\(slow.reason)")
        let relaxed = Verdict.decide(Self.measured(stalls: 0) { $0.realtimeFactor = 0.77; $0.thresholds.minRealtimeFactor = 0.7 })
        #expect(relaxed.verdict == .pass, "\(relaxed.reason)")
        #expect(relaxed.reason == "x started in 0.500 s and played without stalling, received at 0.8x real time (within --min-realtime-factor 0.7).")
        let off = Verdict.decide(Self.measured(stalls: 0) { $0.realtimeFactor = 0.1; $0.thresholds.minRealtimeFactor = 0 })
        #expect(off.verdict == .pass, "\(off.reason)")
        let stricter = Verdict.decide(Self.measured(stalls: 0) { $0.realtimeFactor = 1.2; $0.thresholds.minRealtimeFactor = 1.5 })
        #expect(stricter.verdict == .degraded)
        #expect(stricter.reason == "x arrived at 1.20x real time (below --min-realtime-factor 1.5).", "\(stricter.reason)")
    }

    @Test("a real-time factor is a number, 0 or more, with or without x; 0 is no limit, left out of the limits in force")
    func factorParsing() throws {
        #expect(try VerdictThresholds.factor(parsing: "0.9") == 0.9)
        #expect(try VerdictThresholds.factor(parsing: " 0.75x ") == 0.75)
        #expect(try VerdictThresholds.factor(parsing: "0") == 0)
        for bad in ["-0.1", "nan", "inf", "", "fast", "90%"] {
            #expect(throws: VerdictThresholds.InvalidValue.self, "\(bad)") { try VerdictThresholds.factor(parsing: bad) }
        }
        #expect(VerdictThresholds.default[.minRealtimeFactor] == 1)
        #expect(VerdictThresholds(minRealtimeFactor: 0)[.minRealtimeFactor] == nil)
        var set = VerdictThresholds.default
        set.set([.minRealtimeFactor: 0.5])
        #expect(set.minRealtimeFactor == 0.5)
        #expect(set.named(.minRealtimeFactor) == "--min-realtime-factor 0.5")
    }

    @Test("every threshold round-trips through the JSON object, and a document without min_realtime_factor reads as its default 1")
    func roundTrip() throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let all = VerdictThresholds(
            maxStalls: 2, maxStallTime: 4, maxRebufferRatio: 0.1, maxStartup: 5, maxLatency: 10, maxDrift: 2, minRealtimeFactor: 0.8,
            maxPeakOverBandwidth: 0.25, maxHole: 1.5, maxOriginFaults: 2)
        #expect(try decoder.decode(VerdictThresholds.self, from: Data(JSONOutput.string(all).utf8)) == all)
        let unlimited = VerdictThresholds(maxPeakOverBandwidth: nil, maxHole: nil, maxOriginFaults: nil)
        #expect(try decoder.decode(VerdictThresholds.self, from: Data(JSONOutput.string(unlimited).utf8)) == unlimited)
        let older = #"{"max_stalls": 0, "max_startup": 3, "max_drift": null}"#
        #expect(try decoder.decode(VerdictThresholds.self, from: Data(older.utf8)) == .default)
    }

    @Test("--max-peak-over-bandwidth: 10% by default, named in the reason; a wider tolerance or none passes the same peak")
    func peakOverBandwidth() throws {
        let peak = { (limits: VerdictThresholds) in
            Verdict.decide(Self.measured(stalls: 0) { $0.declaredVariantBitRate = 1_000_000; $0.peakBitRate = 1_200_000; $0.thresholds = limits })
        }
        let strict = peak(.default)
        #expect(strict.verdict == .degraded)
        #expect(strict.reason == "x peaked at 1.2 Mbit/s, more than 10% above its declared BANDWIDTH of 1 Mbit/s (--max-peak-over-bandwidth).", "\(strict.reason)")
        #expect(peak(VerdictThresholds(maxPeakOverBandwidth: 0.25)).verdict == .pass)
        #expect(peak(VerdictThresholds(maxPeakOverBandwidth: nil)).verdict == .pass)
        #expect(peak(VerdictThresholds(maxPeakOverBandwidth: 0.05)).reason.contains("more than 5% above"))
        #expect(try VerdictThresholds.excess(parsing: "25%") == 0.25)
        #expect(try VerdictThresholds.excess(parsing: "1.5") == 1.5)
        #expect(try VerdictThresholds.excess(parsing: "none") == .infinity)
        for bad in ["-5%", "nan", "", "lots"] {
            #expect(throws: VerdictThresholds.InvalidValue.self, "\(bad)") { try VerdictThresholds.excess(parsing: bad) }
        }
        var none = VerdictThresholds.default
        none.set([.maxPeakOverBandwidth: .infinity])
        #expect(none.maxPeakOverBandwidth == nil, "none, as a module says it, is no limit")
    }

    @Test("--max-hole: any hole by default, with the sentence as it always was; a longer limit names itself; none passes every hole")
    func holes() {
        let hole = { (limits: VerdictThresholds) in
            Verdict.decide(Self.measured(stalls: 0) {
                $0.received = [TimeRange(start: 0, end: 4), TimeRange(start: 4.5, end: 8), TimeRange(start: 11, end: 20)]
                $0.thresholds = limits
            })
        }
        let strict = hole(.default)
        #expect(strict.verdict == .degraded)
        #expect(strict.reason == "x has a 0.500 s hole in its media at 4.000 s and has a 3.000 s hole in its media at 8.000 s.", "\(strict.reason)")
        let one = hole(VerdictThresholds(maxHole: 1))
        #expect(one.reason == "x has a 3.000 s hole in its media at 8.000 s (more than --max-hole 1.000 s).", "\(one.reason)")
        #expect(hole(VerdictThresholds(maxHole: 3)).verdict == .pass)
        #expect(hole(VerdictThresholds(maxHole: nil)).verdict == .pass)
        var none = VerdictThresholds.default
        none.set([.maxHole: .infinity])
        #expect(none.maxHole == nil, "none, as a module says it, is no limit")
    }

    @Test("a serve module's origin-fault count no Int holds is no limit, never a trap")
    func originFaultsBeyondInt() {
        var thresholds = VerdictThresholds.default
        thresholds.set([.maxOriginFaults: 3])
        #expect(thresholds.maxOriginFaults == 3)
        thresholds.set([.maxOriginFaults: 1e300])
        #expect(thresholds.maxOriginFaults == nil)
        thresholds.set([.maxOriginFaults: .infinity])
        #expect(thresholds.maxOriginFaults == nil)
    }
}
