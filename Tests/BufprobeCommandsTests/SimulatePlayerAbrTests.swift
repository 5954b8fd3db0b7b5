import BufprobeCommands
import BufprobeOutput
import Foundation
import Testing
import TestSupport
import SimulateEngine

/// `simulate --player hlsjs` runs hls.js's own ABR over a ladder without `--abr`, and the user's flags
/// override it. The ladder is `writeLadder`'s: 2M, 500k, 1M listed in that order, 2 s segments.
@Suite struct SimulatePlayerAbrTests {
    @Test("--player hlsjs on a ladder is adaptive: first the listed-first 2M (its rate is the default estimate), then down to 1M at 1.2 Mbit/s")
    func hlsjsEndToEnd() throws {
        let master = try writeLadder(segments: 10)
        defer { try? FileManager.default.removeItem(atPath: (master as NSString).deletingLastPathComponent) }
        let (run, decoded) = try simulateJSON([master, "--player", "hlsjs", "--bandwidth", "1.2Mbit"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(decoded)
        let abr = try #require(report["abr"] as? [String: Any])
        #expect(abr["rule"] as? String == "hlsjs")
        #expect((abr["model"] as? [String: Any])?["abr_band_width_up_factor"] as? Double == 0.7)
        #expect(abr["abandon"] as? Bool == true)
        // The first segment at 2M (500 kB at 1.2 Mbit/s: 3.333 s to start); then 0.95 x 1.2M = 1.14M admits
        // 1M, whose fetch (0.005 + 2 s x 1M / 1.14M = 1.76 s) beats the 2 s buffered; 0.7 x 1.2M never
        // reaches 2M again.
        #expect(abs((report["startup_delay"] as? Double ?? 0) - 3.333) < 0.002)
        let switches = try #require(abr["switches"] as? [[String: Any]])
        #expect(switches.map { [$0["segment"] as? Int, $0["from"] as? Int, $0["to"] as? Int] } == [[1, 0, 2]])
        #expect(report["stall_count"] as? Int == 0)
    }

    @Test("the text's abr line names the player and its version, not its parameters (those stay in --json)")
    func abrLineNamesThePlayer() throws {
        let master = BufprobeProcess.sample("hls/master.m3u8")
        for (player, name) in [("hlsjs", "hls.js of September 2023"), ("shaka", "Shaka Player 3.1"), ("dashjs", "dash.js 5.1.1")] {
            let run = try BufprobeProcess.run(["simulate", master, "--player", player, "--bandwidth", "1Mbit", "--progress", "none"])
            #expect(run.status == 0, "\(run.stderr)")
            let line = try #require(run.stdout.split(separator: "\n").first { $0.hasPrefix("abr ") }, "\(run.stdout)")
            #expect(line.hasPrefix("abr            \(name): the player's own rule (docs/model.md), "), "\(line)")
            #expect(!line.contains("_"), "no parameter names: \(line)")
        }
    }

    @Test("hls.js abandons a 2M segment when the link falls under it: 1 s into the request, 5 s left > 1 s buffered, for 500k")
    func hlsjsAbandons() throws {
        let master = try writeLadder(segments: 10)
        let directory = (master as NSString).deletingLastPathComponent
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let trace = (directory as NSString).appendingPathComponent("drop.txt")
        try "0 3.0\n1.5 0.2\n60 0.2\n".write(toFile: trace, atomically: true, encoding: .utf8)
        let (run, decoded) = try simulateJSON([master, "--player", "hlsjs", "--trace", trace])
        #expect(run.status == 0, "\(run.stderr)")
        let abr = try #require(decoded?["abr"] as? [String: Any])
        // Segment 0 at 2M (500 kB at 3 Mbit/s: played from 1.333 s). Segment 1 at 2M again; at 2.333 s (half
        // its 2 s, 1 s buffered) 62 500 B came at 3 Mbit/s and 20 833 B at 0.2: 667 kbit/s, 5 s left > 1 s;
        // 1M would take 0.005 + 2 x 1M / 667k = 3 s, not under 1 s, so 500k (3 s < 5 s).
        #expect(abr["abandoned"] as? Int == 1)
        let switches = try #require(abr["switches"] as? [[String: Any]])
        #expect(switches.first.map { [$0["segment"] as? Int, $0["from"] as? Int, $0["to"] as? Int] } == [1, 0, 1])
        #expect((switches.first?["reason"] as? String)?.hasPrefix("hls.js abandoned: 5s left at 667 kbit/s > 1s buffered") == true)
    }

    @Test("--abr replaces the player's ABR; --variant plays one variant; --abr-safety applies to it")
    func overrides() throws {
        let master = try writeLadder(segments: 10)
        defer { try? FileManager.default.removeItem(atPath: (master as NSString).deletingLastPathComponent) }
        let (_, throughput) = try simulateJSON([master, "--player", "hlsjs", "--abr", "throughput", "--bandwidth", "1.2Mbit"])
        let throughputAbr = throughput?["abr"] as? [String: Any]
        #expect(throughputAbr?["rule"] as? String == "throughput")
        #expect(throughputAbr?["model"] == nil)
        let (_, fixed) = try simulateJSON([master, "--player", "hlsjs", "--variant", "1", "--bandwidth", "1.2Mbit"])
        #expect(fixed != nil && fixed?["abr"] == nil)
        // Safety 0.8: 0.8 x 1.2M = 0.96M < 1M, so 500k after the first segment.
        let (_, safer) = try simulateJSON([master, "--player", "hlsjs", "--abr-safety", "0.8", "--bandwidth", "1.2Mbit"])
        let saferSwitches = (safer?["abr"] as? [String: Any])?["switches"] as? [[String: Any]]
        #expect(saferSwitches?.first?["to"] as? Int == 1)
        let refused = try BufprobeProcess.run(["simulate", master, "--player", "hlsjs", "--abr-window", "4", "--bandwidth", "1Mbit"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("the other ABR options need --abr RULE"), "\(refused.stderr)")
    }

    @Test("a --player hlsjs report decodes as SimulateReport: its whole back buffer, written \"inf\", reads back as infinity and the report writes the same document again")
    func hlsjsReportDecodes() throws {
        let run = try BufprobeProcess.run([
            "simulate", "--bitrate", "1Mbit", "--duration", "10s", "--bandwidth", "2Mbit", "--player", "hlsjs", "--json",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(#""back_buffer" : "inf""#))
        let report = try JSONOutput.decoder().decode(SimulateReport.self, from: Data(run.stdout.utf8))
        #expect(report.policy.backBuffer == .infinity)
        #expect(try JSONOutput.string(report) + "\n" == run.stdout)
    }
}

/// Runs `bufprobe simulate ... --json` and reads the report as JSON objects.
private func simulateJSON(_ arguments: [String]) throws -> (BufprobeProcess.Result, [String: Any]?) {
    let result = try BufprobeProcess.run(["simulate"] + arguments + ["--json"])
    return (result, try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
}
