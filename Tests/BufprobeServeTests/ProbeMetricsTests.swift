import BufprobeCommands
@testable import CheckEngine
import MediaIO
import BufprobeServe
import Foundation
import Testing
import BufprobeOutput

/// The one mapping from a check's report to `/probe`'s metrics (`ProbeMetrics`): values, units, null
/// handling and label escaping, on reports decoded from `check --json` documents.
@Suite("serve: report -> metrics")
struct ProbeMetricsTests {
    /// A degraded check as `check --json` writes it (two stalls, two warnings, an HLS variant's BANDWIDTH).
    static let degraded = """
        {"buffered_ahead": 0.5, "bufprobe_version": "0.1.0", "bytes_received": 267227, "complete": false,
         "declared_bit_rate": 545944, "declared_bit_rate_source": "variant", "duration": 10,
         "ffmpeg_versions": {"ffmpeg": "5.1", "libavcodec": "59", "libavformat": "59", "libavutil": "57"},
         "first_packet_time": 0.25, "format": "hls", "live": false, "loaded_ranges": [[0, 6]],
         "measured_bit_rate": 206644, "open_time": 0.125, "peak_bit_rate": 610000, "playable_streams": [0, 1],
         "played": 4.5, "realtime_factor": 0.75, "reason": "it stalled.", "rebuffer_ratio": 0.4375,
         "sampled_duration": 8, "schema_version": 1, "skipped_holes": [[4, 4.5]],
         "settings": {"max_buffer": 50, "max_startup": 3, "rate": null, "resume_threshold": 2, "sample_limit": 7.5,
                      "start_threshold": 1, "timeout": 7.5, "variant": "best"},
         "source": "http://127.0.0.1:1/hls/master.m3u8", "stall_count": 2, "stall_time": 3.5,
         "stalls": [{"position": 1, "start": 2, "duration": 1.5}, {"position": 3, "start": 5, "duration": 2}],
         "startup_delay": 1.25, "throughput_bps": 160000, "time_origin": 0, "variants": [], "verdict": "degraded",
         "warnings": ["one", "two"]}
        """

    static func report(_ edit: (inout CheckReport) -> Void = { _ in }) throws -> CheckReport {
        var report = try JSONOutput.decoder().decode(CheckReport.self, from: Data(degraded.utf8))
        edit(&report)
        return report
    }

    static func metrics(_ report: CheckReport, seconds: Double = 8.25) throws -> Exposition {
        try Exposition(ProbeMetrics.exposition(of: report, probeSeconds: seconds))
    }

    @Test(
        "every field maps to its metric, in base units",
        arguments: [
            ("bufprobe_probe_success", 1), ("bufprobe_probe_duration_seconds", 8.25), ("bufprobe_open_seconds", 0.125),
            ("bufprobe_first_packet_seconds", 0.25), ("bufprobe_startup_delay_seconds", 1.25), ("bufprobe_stalls", 2),
            ("bufprobe_stall_seconds", 3.5), ("bufprobe_holes_skipped", 1), ("bufprobe_rebuffer_ratio", 0.4375),
            ("bufprobe_throughput_bytes_per_second", 20_000), ("bufprobe_realtime_factor", 0.75),
            ("bufprobe_declared_rate_bytes_per_second", 68_243), ("bufprobe_measured_rate_bytes_per_second", 25_830.5),
            ("bufprobe_peak_rate_bytes_per_second", 76_250), ("bufprobe_played_seconds", 4.5),
            ("bufprobe_buffered_ahead_seconds", 0.5), ("bufprobe_sampled_seconds", 8), ("bufprobe_received_bytes", 267_227),
            ("bufprobe_media_duration_seconds", 10), ("bufprobe_live", 0), ("bufprobe_complete", 0), ("bufprobe_warnings", 2),
        ] as [(String, Double)])
    func fieldMapsToMetric(name: String, value: Double) throws {
        let metrics = try Self.metrics(Self.report())
        #expect(metrics.value(name) == value)
        #expect(metrics.types[name] == "gauge")
        #expect(metrics.samples.filter { $0.name == name }.count == 1)
    }

    @Test(
        "bufprobe_verdict is 1 for the verdict that holds and 0 for the others; probe_success is 0 only for fail",
        arguments: [CheckVerdict.pass, .degraded, .fail])
    func verdictSeries(verdict: CheckVerdict) throws {
        let metrics = try Self.metrics(Self.report { $0.verdict = verdict })
        for other in [CheckVerdict.pass, .degraded, .fail] {
            #expect(metrics.value("bufprobe_verdict", ["verdict": other.rawValue]) == (other == verdict ? 1 : 0))
        }
        #expect(metrics.samples.filter { $0.name == "bufprobe_verdict" }.count == 3)
        #expect(metrics.value("bufprobe_probe_success") == (verdict == .fail ? 0 : 1))
    }

    @Test("the thresholds in force are one series each, a threshold not limited left out")
    func thresholds() throws {
        #expect(!(try Self.metrics(Self.report())).has("bufprobe_verdict_threshold"), "a document without settings.thresholds has none")
        let metrics = try Self.metrics(Self.report { $0.settings.thresholds = VerdictThresholds(maxStalls: 2, maxRebufferRatio: 0.01, maxLatency: 8, minRealtimeFactor: 0, maxPeakOverBandwidth: nil, maxHole: nil, maxOriginFaults: nil) })
        let written = metrics.samples.filter { $0.name == "bufprobe_verdict_threshold" }
        #expect(Dictionary(uniqueKeysWithValues: written.map { ($0.labels["threshold"] ?? "", $0.value) })
            == ["max_stalls": 2, "max_rebuffer_ratio": 0.01, "max_startup": 3, "max_latency": 8])
        let defaults = try Self.metrics(Self.report { $0.settings.thresholds = .default })
        #expect(defaults.value("bufprobe_verdict_threshold", ["threshold": "min_realtime_factor"]) == 1, "the default real-time rule is in force")
        #expect(defaults.value("bufprobe_verdict_threshold", ["threshold": "max_peak_over_bandwidth"]) == 0.1, "so is the bandwidth rule")
    }

    @Test(
        "a value that is null in the report is left out, not written as 0",
        arguments: [
            ("startup_delay", "bufprobe_startup_delay_seconds"), ("open_time", "bufprobe_open_seconds"),
            ("first_packet_time", "bufprobe_first_packet_seconds"), ("throughput_bps", "bufprobe_throughput_bytes_per_second"),
            ("realtime_factor", "bufprobe_realtime_factor"), ("declared_bit_rate", "bufprobe_declared_rate_bytes_per_second"),
            ("measured_bit_rate", "bufprobe_measured_rate_bytes_per_second"),
            ("peak_bit_rate", "bufprobe_peak_rate_bytes_per_second"), ("bytes_received", "bufprobe_received_bytes"),
            ("duration", "bufprobe_media_duration_seconds"), ("rebuffer_ratio", "bufprobe_rebuffer_ratio"),
        ])
    func nullIsLeftOut(key: String, name: String) throws {
        let present = try Self.metrics(Self.report())
        #expect(present.has(name), "the field must map to a metric when present for the test to mean anything")
        // The first occurrence is the report's own field (a stall has a duration too).
        var json = Self.degraded
        let field = try #require(json.range(of: #""\#(key)": [0-9.]+"#, options: .regularExpression))
        json.replaceSubrange(field, with: "\"\(key)\": null")
        let report = try JSONOutput.decoder().decode(CheckReport.self, from: Data(json.utf8))
        let metrics = try Self.metrics(report)
        #expect(!metrics.has(name))
        #expect(!ProbeMetrics.exposition(of: report, probeSeconds: 1).contains(name + " "))
        // Everything else is still there.
        #expect(metrics.has("bufprobe_probe_success"))
        #expect(metrics.samples.count == present.samples.count - 1)
    }

    @Test(
        "a hostile target (quotes, backslashes, newlines, braces) stays one label value and cannot add a sample",
        arguments: [
            "http://x/\"a\"", "http://x/a\\b", "http://x/a\nbufprobe_probe_success 1", "http://x/}{=,\" 1\n# TYPE x counter",
            "http://x/\u{1b}[2J\r\t",
        ])
    func hostileTargetIsEscaped(target: String) throws {
        let report = try Self.report {
            $0.source = target
            $0.verdict = .fail
        }
        let text = ProbeMetrics.exposition(of: report, probeSeconds: 1)
        let metrics = try Exposition(text)
        #expect(metrics.value("bufprobe_probe_info", ["target": target]) == 1)
        #expect(metrics.samples.filter { $0.name == "bufprobe_probe_success" }.map(\.value) == [0])
        #expect(metrics.types.keys.allSatisfy { $0.hasPrefix("bufprobe_") })
    }

    @Test("metric names follow Prometheus conventions: bufprobe_ prefix, snake case, a base unit or a unitless kind")
    func namesFollowConventions() throws {
        // Counts of one check are plain nouns: `_total` is a counter's suffix, and every metric is a gauge.
        let suffixes = ["_seconds", "_bytes_per_second", "_bytes", "_ratio", "_factor", "_success", "_live",
                        "_complete", "_warnings", "_info", "_stalls", "_skipped"]
        let names = ProbeMetrics.gauges.map(\.name) + ["bufprobe_probe_duration_seconds", "bufprobe_verdict"]
        for name in names {
            #expect(name.allSatisfy { $0.isLowercase || $0 == "_" }, "\(name)")
            #expect(name.hasPrefix("bufprobe_"), "\(name)")
            #expect(name == "bufprobe_verdict" || suffixes.contains { name.hasSuffix($0) }, "\(name)")
            #expect(!name.contains("milli") && !name.contains("kbit") && !name.contains("_ms") && !name.contains("_bits"), "\(name): base units only")
            #expect(!name.hasSuffix("_total"), "\(name): a gauge has no counter suffix")
        }
        #expect(Set(names).count == names.count)
    }

    @Test("live playlist health: one series per problem kind and the reload count, only when the report has playlist_health")
    func playlistHealth() throws {
        let vod = try Self.metrics(Self.report())
        #expect(!vod.has("bufprobe_playlist_problems") && !vod.has("bufprobe_playlist_reloads"), "null health is left out")
        let live = try Self.metrics(Self.report { report in
            var health = CheckReport.PlaylistHealth()
            health.reloads = 12
            health.counts.add(2, to: .stale)
            health.counts.add(1, to: .mediaSequenceRegression)
            report.playlistHealth = health
            report.live = true
        })
        #expect(live.value("bufprobe_playlist_reloads") == 12)
        #expect(live.value("bufprobe_playlist_problems", ["kind": "stale"]) == 2)
        #expect(live.value("bufprobe_playlist_problems", ["kind": "media_sequence_regression"]) == 1)
        #expect(live.value("bufprobe_playlist_problems", ["kind": "segment_count_shrink"]) == 0)
        let kinds = Set(live.samples.filter { $0.name == "bufprobe_playlist_problems" }.compactMap { $0.labels["kind"] })
        #expect(kinds == Set(HLSPlaylistHealth.Kind.allCases.map(\.rawValue)))
        #expect(live.value("bufprobe_live") == 1)
    }

    @Test("all variants: one series per variant and problem kind and the count validated, only when the report has variant_checks")
    func variantChecks() throws {
        let plain = try Self.metrics(Self.report())
        #expect(!plain.has("bufprobe_variant_problems") && !plain.has("bufprobe_variants_validated"), "null checks are left out")
        let json = """
            [{"index": 0, "uri": "low.m3u8", "declared": {"bandwidth": 300000, "average_bandwidth": null, "resolution": "640x360",
              "codecs": null, "frame_rate": null},
              "measured": {"width": 640, "height": 360, "codecs": [], "frame_rate": null, "peak_bit_rate": null,
              "average_bit_rate": null, "segments_measured": 0}, "problems": [], "unverified": []},
             {"index": 1, "uri": "high.m3u8", "declared": {"bandwidth": 500000, "average_bandwidth": null, "resolution": "1920x1080",
              "codecs": null, "frame_rate": null},
              "measured": {"width": 640, "height": 360, "codecs": [], "frame_rate": null, "peak_bit_rate": 800000,
              "average_bit_rate": null, "segments_measured": 3},
              "problems": [{"kind": "resolution_mismatch", "message": "a"}, {"kind": "bandwidth_exceeded", "message": "b"}],
              "unverified": []}]
            """
        let checks = try JSONOutput.decoder().decode([VariantCheck].self, from: Data(json.utf8))
        let metrics = try Self.metrics(Self.report { $0.variantChecks = checks })
        #expect(metrics.value("bufprobe_variants_validated") == 2)
        #expect(metrics.value("bufprobe_variant_problems", ["variant": "1", "kind": "resolution_mismatch"]) == 1)
        #expect(metrics.value("bufprobe_variant_problems", ["variant": "1", "kind": "bandwidth_exceeded"]) == 1)
        #expect(metrics.value("bufprobe_variant_problems", ["variant": "1", "kind": "codecs_mismatch"]) == 0)
        #expect(metrics.value("bufprobe_variant_problems", ["variant": "0", "kind": "resolution_mismatch"]) == 0)
        #expect(metrics.samples.filter { $0.name == "bufprobe_variant_problems" }.count == 2 * VariantCheck.Kind.allCases.count)
    }
}
