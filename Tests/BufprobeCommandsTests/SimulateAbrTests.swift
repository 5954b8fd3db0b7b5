import BufprobeCommands
import Foundation
import PlaybackModel
import Testing
import TestSupport
import BufprobeOutput
import SimulateEngine

/// A local HLS ladder of CBR variants in 2 s segments whose sizes come from `#EXT-X-BYTERANGE` (the
/// segment file need not exist: simulate measures a ranged segment by its range), listed highest first.
/// With `map`, every variant has an `#EXT-X-MAP` initialization section of that many bytes (plus 100 per
/// variant index, so they differ). Returns the master playlist's path; the caller removes its directory.
func writeLadder(
    rates: [Int] = [2_000_000, 500_000, 1_000_000], segments: Int = 150, misalignLast: Bool = false, map: Int? = nil
) throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("abr-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    var master = "#EXTM3U\n#EXT-X-VERSION:4\n"
    for (index, rate) in rates.enumerated() {
        master += "#EXT-X-STREAM-INF:BANDWIDTH=\(rate)\nv\(index).m3u8\n"
        var media = "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        let count = misalignLast && index == rates.count - 1 ? segments - 1 : segments
        let size = rate * 2 / 8
        if let map { media += "#EXT-X-MAP:URI=\"v\(index).mp4\",BYTERANGE=\"\(map + 100 * index)@0\"\n" }
        for segment in 0..<count {
            media += "#EXTINF:2.0,\n#EXT-X-BYTERANGE:\(size)@\(segment * size)\nv\(index).ts\n"
        }
        media += "#EXT-X-ENDLIST\n"
        try media.write(to: directory.appendingPathComponent("v\(index).m3u8"), atomically: true, encoding: .utf8)
    }
    let path = directory.appendingPathComponent("master.m3u8").path
    try master.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// The same ladder as `writeLadder` as a DASH manifest: one video representation per rate (listed in that
/// order), a `SegmentList` of 2 s segments whose sizes come from `@mediaRange` in one file each (which
/// need not exist), and, with `initialization`, an `Initialization@range` of that many bytes.
func writeDASHLadder(rates: [Int] = [2_000_000, 500_000, 1_000_000], segments: Int = 150, initialization: Int? = nil)
    throws -> String
{
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dash-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    var mpd = """
        <?xml version="1.0" encoding="utf-8"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT\(segments * 2).0S">
        <Period id="0"><AdaptationSet contentType="video">

        """
    for (index, rate) in rates.enumerated() {
        let size = rate * 2 / 8
        let start = initialization ?? 0
        mpd += "<Representation id=\"v\(index)\" bandwidth=\"\(rate)\"><BaseURL>v\(index).mp4</BaseURL>"
        mpd += "<SegmentList timescale=\"1000\" duration=\"2000\">"
        if let initialization { mpd += "<Initialization range=\"0-\(initialization - 1)\"/>" }
        for segment in 0..<segments {
            mpd += "<SegmentURL mediaRange=\"\(start + segment * size)-\(start + (segment + 1) * size - 1)\"/>"
        }
        mpd += "</SegmentList></Representation>\n"
    }
    mpd += "</AdaptationSet></Period></MPD>\n"
    let path = directory.appendingPathComponent("manifest.mpd").path
    try mpd.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// The ladder of `writeLadder` as an HLS master (`m3u8`) or a DASH manifest (`mpd`).
func writeLadder(format: String) throws -> String {
    format == "mpd" ? try writeDASHLadder() : try writeLadder()
}

/// Runs `bufprobe simulate ... --json` and decodes the report.
private func simulateJSON(_ arguments: [String]) throws -> (BufprobeProcess.Result, SimulateReport?) {
    let result = try BufprobeProcess.run(["simulate"] + arguments + ["--json"])
    return (result, try? JSONOutput.decoder().decode(SimulateReport.self, from: Data(result.stdout.utf8)))
}

@Suite("bufprobe simulate --abr")
struct SimulateAbrTests {
    /// The variant (master index) played longest.
    static func mostPlayed(_ abr: SimulateReport.Abr) -> Int? {
        abr.variants.max { $0.playedTime < $1.playedTime }?.variant
    }

    @Test(
        "on a 3-variant ladder, throughput plays mostly the highest variant under 0.9 x the bandwidth, without stalls",
        arguments: [("4Mbit", 0), ("1.2Mbit", 2), ("600kbit", 1)], ["m3u8", "mpd"])
    func throughput(steady: (bandwidth: String, expected: Int), format: String) throws {
        let (bandwidth, expected) = steady
        let master = try writeLadder(format: format)
        defer { try? FileManager.default.removeItem(atPath: (master as NSString).deletingLastPathComponent) }
        let (run, decoded) = try simulateJSON([master, "--abr", "throughput", "--bandwidth", bandwidth, "--latency", "20ms"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(decoded)
        let abr = try #require(report.abr)
        #expect(Self.mostPlayed(abr) == expected)
        #expect(report.stallCount == 0)
        #expect(report.ended)
        #expect(abr.variants.map(\.variant) == [1, 2, 0])  // ascending bit rate, master indices
        #expect(abs(abr.variants.reduce(0) { $0 + $1.playedTime } - 300) < 1e-6)
        #expect(report.events.filter { $0.type == "switch" }.count == abr.switchCount)
    }

    @Test(
        "on a 3-variant ladder, BOLA-BASIC plays mostly the highest variant under the bandwidth, never stalls and stays within it on average",
        arguments: [("4Mbit", 0), ("1.2Mbit", 2), ("600kbit", 1)], ["m3u8", "mpd"])
    func bola(steady: (bandwidth: String, expected: Int), format: String) throws {
        let (bandwidth, expected) = steady
        let master = try writeLadder(format: format)
        defer { try? FileManager.default.removeItem(atPath: (master as NSString).deletingLastPathComponent) }
        let (run, decoded) = try simulateJSON([master, "--abr", "bola", "--bola-variant", "basic", "--bandwidth", bandwidth])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(decoded)
        let abr = try #require(report.abr)
        #expect(report.stallCount == 0)
        #expect(abr.rule == "bola")
        #expect(abr.parameters.bolaVariant == "basic")
        #expect(Self.mostPlayed(abr) == expected)
        let rate = try BitRate(parsing: bandwidth).bitsPerSecond
        #expect(abr.averageBitRate <= rate)
        #expect(abr.qoe.segments == 150)
    }

    @Test(
        "--abr bola is BOLA-U by default: mostly the highest variant under the bandwidth, within it on average",
        arguments: [("4Mbit", 0), ("1.2Mbit", 2), ("600kbit", 1)])
    func bolaU(steady: (bandwidth: String, expected: Int)) throws {
        let (bandwidth, expected) = steady
        let master = try writeLadder()
        defer { try? FileManager.default.removeItem(atPath: (master as NSString).deletingLastPathComponent) }
        let (run, decoded) = try simulateJSON([master, "--abr", "bola", "--bandwidth", bandwidth])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(decoded)
        let abr = try #require(report.abr)
        #expect(abr.parameters.bolaVariant == "u")
        #expect(abr.parameters.estimator == "sliding")
        #expect(Self.mostPlayed(abr) == expected)
        let rate = try BitRate(parsing: bandwidth).bitsPerSecond
        #expect(abr.averageBitRate <= rate)
    }

    @Test(
        "bola_buffer_target reports the buffer size used: --bola-target, at most --max-buffer plus a 2 s segment",
        arguments: [(["--max-buffer", "23s", "--bola-target", "25s"], 25.0), (["--max-buffer", "10s"], 12.0), ([], 25.0)])
    func bolaBufferTargetUsed(options: [String], expected: Double) throws {
        let master = try writeLadder()
        defer { try? FileManager.default.removeItem(atPath: (master as NSString).deletingLastPathComponent) }
        let (run, decoded) = try simulateJSON([master, "--abr", "bola", "--bandwidth", "1Mbit"] + options)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(decoded)
        let abr = try #require(report.abr)
        #expect(abr.parameters.bolaBufferTarget == expected)
    }

    @Test("--abr-estimator ewma and --abr-insufficient-buffer are reported; misplaced BOLA/throughput options are refused")
    func estimatorOptions() throws {
        let master = try writeLadder()
        defer { try? FileManager.default.removeItem(atPath: (master as NSString).deletingLastPathComponent) }
        let (run, decoded) = try simulateJSON([
            master, "--abr", "throughput", "--abr-estimator", "ewma", "--abr-insufficient-buffer", "--bandwidth", "1Mbit",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(decoded)
        let parameters = try #require(report.abr).parameters
        #expect(parameters.estimator == "ewma")
        #expect(parameters.ewmaHalfLives == [3, 8])
        #expect(parameters.insufficientBufferRule)
        for arguments in [
            ["--abr", "bola", "--abr-insufficient-buffer"], ["--abr", "throughput", "--bola-variant", "u"],
            ["--abr", "bola", "--bola-variant", "x"], ["--bola-variant", "basic"],
        ] {
            let refused = try BufprobeProcess.run(["simulate", master, "--bandwidth", "1Mbit"] + arguments)
            #expect(refused.status == 64, "\(arguments): \(refused.stderr)")
        }
    }

    @Test("the same ladder, rule and trace give byte-identical JSON", arguments: ["m3u8", "mpd"])
    func deterministic(format: String) throws {
        let master = try writeLadder(format: format)
        defer { try? FileManager.default.removeItem(atPath: (master as NSString).deletingLastPathComponent) }
        let arguments = ["simulate", master, "--abr", "dynamic", "--trace", BufprobeProcess.sample("traces/3g-hsdpa.txt"), "--json"]
        let first = try BufprobeProcess.run(arguments)
        let second = try BufprobeProcess.run(arguments)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("\"abr\""))
        #expect(first.stdout == second.stdout)
    }

    @Test("--abr fixed plays --variant's variant exactly as without --abr, and only adds the abr object")
    func fixedMatches() throws {
        for variant in ["0", "1"] {
            let common = [BufprobeProcess.sample("hls/master.m3u8"), "--bandwidth", "400kbit", "--latency", "80ms", "--variant", variant]
            let (_, plain) = try simulateJSON(common)
            let (run, adaptive) = try simulateJSON(common + ["--abr", "fixed"])
            #expect(run.status == 0, "\(run.stderr)")
            var stripped = try #require(adaptive)
            let abr = try #require(stripped.abr)
            #expect(abr.switchCount == 0)
            #expect(abr.parameters.variant == Int(variant))
            #expect(abr.variants.first { $0.variant == Int(variant) }?.playedTime == 10)
            let original = try #require(plain)
            #expect(original.abr == nil)
            stripped.abr = nil
            stripped.source = original.source
            // request_log names the ladder's variant (ascending index) only over a ladder; the requests
            // are the same. The sample's ladder is listed in ascending order.
            #expect(stripped.requestLog.allSatisfy { $0.variant == Int(variant) })
            #expect(original.requestLog.allSatisfy { $0.variant == nil })
            #expect(stripped.requestLog.map(\.bytes) == original.requestLog.map(\.bytes))
            stripped.requestLog = original.requestLog
            #expect(stripped == original)
        }
    }

    @Test("the text report lists the variants, the switches and the QoE formula")
    func text() throws {
        let master = try writeLadder(segments: 30)
        defer { try? FileManager.default.removeItem(atPath: (master as NSString).deletingLastPathComponent) }
        let run = try BufprobeProcess.run(["simulate", master, "--abr", "throughput", "--bandwidth", "4Mbit"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("abr            throughput (safety 0.9, window 3 segments)"))
        #expect(run.stdout.contains("variant 1 -> 0 (2 Mbit/s): throughput"))
        #expect(run.stdout.contains("switch to the 2 Mbit/s variant"))
        #expect(run.stdout.contains("qoe "))
    }

    @Test(
        "--abr mistakes exit 64 with one sentence",
        arguments: [
            (["--bitrate", "1Mbit", "--duration", "1m", "--bandwidth", "1Mbit", "--abr", "bola"], "error: --abr needs a local HLS master playlist"),
            (["SAMPLE:cbr.wav", "--bandwidth", "1Mbit", "--abr", "throughput"], "error: --abr applies to local HLS master playlists"),
            (["SAMPLE:hls/master.m3u8", "--bandwidth", "1Mbit", "--abr", "bola", "--variant", "1"], "error: --variant chooses the variant of --abr fixed"),
            (["SAMPLE:hls/master.m3u8", "--bandwidth", "1Mbit", "--abr-safety", "0.8"], "error: the ABR and QoE options need --abr RULE."),
            (["SAMPLE:hls/master.m3u8", "--bandwidth", "1Mbit", "--abr", "bola", "--abr-safety", "1.5"], "error: --abr-safety must be above 0 and at most 1."),
            (["SAMPLE:hls/master.m3u8", "--bandwidth", "1Mbit", "--abr", "fixed", "--variant", "7"], "--variant 7 is not one of them"),
            (["SAMPLE:hls/master.m3u8", "--bandwidth", "1Mbit", "--abr", "fixed", "--abandon"], "error: --abandon needs an adaptive rule"),
        ] as [([String], String)])
    func mistakes(arguments: [String], message: String) throws {
        let resolved = arguments.map { $0.hasPrefix("SAMPLE:") ? BufprobeProcess.sample(String($0.dropFirst(7))) : $0 }
        let run = try BufprobeProcess.run(["simulate"] + resolved)
        #expect(run.status == 64)
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }

    @Test("--plot draws the session as SVG that rsvg-convert renders: buffer, bandwidth, variant steps, stall bands")
    func plot() throws {
        let master = try writeLadder(segments: 60)
        let directory = (master as NSString).deletingLastPathComponent
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = (directory as NSString).appendingPathComponent("drop.yaml")
        try "network: { bandwidth: 4Mbit, latency: 20ms }\ntimeline:\n  - { at: 30s, bandwidth: 300kbit }\n  - { at: 60s, bandwidth: 4Mbit }\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        let svg = (directory as NSString).appendingPathComponent("session.svg")
        let run = try BufprobeProcess.run(["simulate", master, "--script", script, "--abr", "throughput", "--max-buffer", "10s", "--plot", svg, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try? JSONOutput.decoder().decode(SimulateReport.self, from: Data(run.stdout.utf8)))
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(text.hasPrefix("<?xml"))
        #expect(text.contains("Simulated session of master.m3u8"))
        #expect(text.components(separatedBy: "<polyline").count - 1 == 3)
        // One shaded band per stall.
        #expect(report.stallCount > 0)
        #expect(text.components(separatedBy: "fill-opacity=\"0.25\"").count - 1 == report.stallCount + 1)
        let png = (directory as NSString).appendingPathComponent("session.png")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/rsvg-convert")
        process.arguments = [svg, "-o", png]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let size = (try FileManager.default.attributesOfItem(atPath: png)[.size] as? NSNumber)?.intValue ?? 0
        #expect(size > 1000)
    }

    @Test("--plot also draws a one-variant session, with the media's bit rate")
    func plotOneVariant() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("plot-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let svg = (directory as NSString).appendingPathComponent("one.svg")
        let run = try BufprobeProcess.run(["simulate", BufprobeProcess.sample("cbr.wav"), "--bandwidth", "64kbit", "--plot", svg])
        #expect(run.status == 0, "\(run.stderr)")
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(text.contains("media bit rate"))
        #expect(text.contains("Simulated session of cbr.wav"))
    }

    @Test("--trace-dir runs every trace as --trace would, one row each, with the totals over them")
    func traceDirectory() throws {
        let master = try writeLadder(segments: 45)
        let directory = (master as NSString).deletingLastPathComponent
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let traces = (directory as NSString).appendingPathComponent("traces")
        try FileManager.default.createDirectory(atPath: traces, withIntermediateDirectories: true)
        for name in ["3g-hsdpa.txt", "sabre-4g.json"] {
            try FileManager.default.copyItem(
                atPath: BufprobeProcess.sample("traces/\(name)"), toPath: (traces as NSString).appendingPathComponent(name))
        }
        let run = try BufprobeProcess.run(["simulate", master, "--abr", "bola", "--trace-dir", traces, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let batch = try #require(try? JSONOutput.decoder().decode(SimulateBatchReport.self, from: Data(run.stdout.utf8)))
        #expect(batch.traces.map { ($0.trace as NSString).lastPathComponent } == ["3g-hsdpa.txt", "sabre-4g.json"])
        for row in batch.traces {
            let (_, single) = try simulateJSON([master, "--abr", "bola", "--trace", row.trace])
            #expect(row.report == single)
        }
        #expect(batch.totals.traces == 2)
        #expect(batch.totals.stallCount == batch.traces.reduce(0) { $0 + $1.report.stallCount })
        #expect(batch.totals.switchCount == batch.traces.reduce(0) { $0 + ($1.report.abr?.switchCount ?? 0) })
        let text = try BufprobeProcess.run(["simulate", master, "--abr", "bola", "--trace-dir", traces])
        #expect(text.stdout.contains("3g-hsdpa.txt"))
        #expect(text.stdout.contains("total (2, mean startup)"))
        let mixed = try BufprobeProcess.run(["simulate", master, "--trace-dir", traces, "--bandwidth", "1Mbit"])
        #expect(mixed.status == 64)
    }

    @Test("byte ranges that add up past 1 PiB are refused with exit 2 instead of overflowing, with --abr and without")
    func hostileByteRanges() throws {
        let master = try writeLadder(rates: [1_000_000, 2_000_000], segments: 3)
        let directory = (master as NSString).deletingLastPathComponent
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let huge = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\n#EXT-X-BYTERANGE:9000000000000000000@0\nv.ts\n#EXTINF:2.0,\n#EXT-X-BYTERANGE:9000000000000000000@0\nv.ts\n#EXTINF:2.0,\n#EXT-X-BYTERANGE:9000000000000000000@0\nv.ts\n#EXT-X-ENDLIST\n"
        try huge.write(toFile: (directory as NSString).appendingPathComponent("v1.m3u8"), atomically: true, encoding: .utf8)
        for extra in [["--abr", "bola"], ["--variant", "1"]] {
            let run = try BufprobeProcess.run(["simulate", master, "--bandwidth", "1Mbit"] + extra)
            #expect(run.status == 2, "\(run.stderr)")
            #expect(run.stderr.contains("more than 1 PiB"), "\(run.stderr)")
        }
    }

    @Test("a ladder whose variants list different segment counts is refused with exit 2, naming the variant")
    func misaligned() throws {
        let master = try writeLadder(segments: 10, misalignLast: true)
        defer { try? FileManager.default.removeItem(atPath: (master as NSString).deletingLastPathComponent) }
        let run = try BufprobeProcess.run(["simulate", master, "--abr", "bola", "--bandwidth", "1Mbit"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("variant 2 lists 9 segments where variant 0 lists 10"), "\(run.stderr)")
    }

    @Test("an EXT-X-MAP is one request and its bytes, once per variant the rule uses, never again for that variant")
    func initializationOncePerVariant() throws {
        let plain = try writeLadder(rates: [500_000, 1_000_000, 2_000_000], segments: 60)
        let mapped = try writeLadder(rates: [500_000, 1_000_000, 2_000_000], segments: 60, map: 20_000)
        defer {
            for master in [plain, mapped] { try? FileManager.default.removeItem(atPath: (master as NSString).deletingLastPathComponent) }
        }
        // One variant: one more request, the map's bytes once.
        let fixed = ["--abr", "fixed", "--variant", "1", "--bandwidth", "1.5Mbit", "--latency", "100ms"]
        let (_, one) = try simulateJSON([plain] + fixed)
        let (_, oneMapped) = try simulateJSON([mapped] + fixed)
        let a = try #require(one)
        let b = try #require(oneMapped)
        #expect(b.requests == a.requests + 1)
        #expect(b.bytesReceived == a.bytesReceived + 20_100)
        // Several variants, switching back and forth: one map per variant used.
        let trace = (mapped as NSString).deletingLastPathComponent + "/trace.txt"
        try "0 4\n20 0.7\n60 4\n".write(toFile: trace, atomically: true, encoding: .utf8)
        let (result, report) = try simulateJSON([mapped, "--abr", "throughput", "--trace", trace, "--latency", "50ms"])
        #expect(result.status == 0, "\(result.stderr)")
        let abr = try #require(report?.abr)
        let used = abr.variants.filter { $0.segments > 0 }
        #expect(used.count >= 2 && abr.switchCount > used.count, "the rule must come back to a variant: \(abr.switches)")
        #expect(report?.requests == 60 + used.count)
        let maps = used.map { Int64(20_000 + 100 * $0.variant) }.reduce(0, +)
        let segments = used.map { Int64($0.segments) * Int64(($0.bitRate * 2 / 8).rounded()) }.reduce(0, +)
        #expect(report?.bytesReceived == segments + maps)
        #expect(used.allSatisfy { $0.bytes == Int64($0.segments) * Int64(($0.bitRate * 2 / 8).rounded()) + Int64(20_000 + 100 * $0.variant) })
    }
}
