import BufprobeCommands
import Foundation
import Testing
import TestSupport
import BufprobeOutput
import SimulateEngine

/// Runs `bufprobe simulate` with `arguments` and decodes its `--json` report.
private func simulate(_ arguments: [String]) throws -> (BufprobeProcess.Result, SimulateReport?) {
    let result = try BufprobeProcess.run(["simulate"] + arguments + ["--json"])
    let report = try? JSONOutput.decoder().decode(SimulateReport.self, from: Data(result.stdout.utf8))
    return (result, report)
}

/// A script written to a temporary file, removed by the caller.
private func temporaryScript(_ text: String, name: String = "script.yaml") throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("simulate-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent(name).path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

@Suite("bufprobe simulate")
struct SimulateCommandTests {
    /// Outside every target's folder, so SwiftPM does not ask for them to be declared as resources.
    /// Regenerate with `BUFPROBE_UPDATE_GOLDEN=1 swift test --filter SimulateCommandTests` and review the diff.
    static let goldenDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Golden/simulate")
    static let scripts = ["3g-outage", "data-saver", "hls-bandwidth-drop", "preload-then-play", "seek-and-pause"]

    @Test("the CBR WAV at 256 kbit/s (twice its rate) starts after 1 s of audio plus latency and never stalls")
    func wavAmpleBandwidth() throws {
        let (run, decoded) = try simulate([BufprobeProcess.sample("cbr.wav"), "--bandwidth", "256kbit", "--latency", "50ms"])
        #expect(run.status == 0)
        let report = try #require(decoded)
        // The 44-byte header plus 16,000 bytes (1 s) at 32,000 bytes/s, after 50 ms; the WAV demuxer's
        // packets are 4,096 bytes, so the threshold is met by the end of the packet holding 1 s.
        let formula = 0.05 + 16_044.0 / 32_000
        #expect(report.startupDelay >= formula - 1e-9)
        #expect(report.startupDelay <= formula + 4_096.0 / 32_000)
        #expect(report.stallCount == 0)
        #expect(report.ended)
        #expect(report.source.layout == "progressive")
        #expect(report.requests == 1)
        #expect(report.events.first?.type == "session")
        #expect(report.events.last?.type == "end")
    }

    @Test("a URL is labelled network, a local file file, in the text and in source.kind")
    func urlLabel() throws {
        let nginx = try NginxServer()
        for (input, kind) in [(nginx.url("h264-aac.mp4"), "network"), (BufprobeProcess.sample("h264-aac.mp4"), "file")] {
            let text = try BufprobeProcess.run(["simulate", input, "--bandwidth", "1Mbit", "--progress", "none"])
            #expect(text.status == 0, "\(text.stderr)")
            #expect(text.stdout.hasPrefix("media    \(input) (\(kind), 10.000 s, "), "\(text.stdout)")
            let (_, decoded) = try simulate([input, "--bandwidth", "1Mbit"])
            #expect(decoded?.source.kind == kind)
        }
    }

    @Test("the CBR WAV at half its rate waits between T(R/B - 1) and that plus the resume threshold in total")
    func wavScarceBandwidth() throws {
        let (run, decoded) = try simulate([BufprobeProcess.sample("cbr.wav"), "--bandwidth", "64kbit"])
        #expect(run.status == 0)
        let report = try #require(decoded)
        let waited = report.startupDelay + report.stallTime
        #expect(waited >= 10 - 1e-6 && waited <= 12 + 44.0 * 8 / 64_000 + 1e-6)
        #expect(report.stallCount > 0)
        #expect(report.stalls.count == report.stallCount)
        #expect(report.ended)
    }

    @Test("a 60 s outage with ample bandwidth and a 50 s forward target stalls once, for about 10 s")
    func outage() throws {
        let script = try temporaryScript(
            "synthetic: { bitrate: 1Mbit, duration: 5m }\nnetwork: { bandwidth: 50Mbit }\ntimeline:\n  - { at: 30s, outage: 60s }\n")
        defer { try? FileManager.default.removeItem(atPath: (script as NSString).deletingLastPathComponent) }
        let (run, decoded) = try simulate(["--script", script])
        #expect(run.status == 0)
        let report = try #require(decoded)
        #expect(report.stallCount == 1)
        let stall = try #require(report.stalls.first)
        #expect(stall.duration >= 10 && stall.duration < 10.1)
        #expect(abs(stall.position - (30 - report.startupDelay + 50)) < 0.1)
        #expect(report.events.map(\.type).contains("outage_end"))
    }

    @Test("the committed example scripts give the committed JSON, byte for byte", arguments: Self.scripts)
    func golden(name: String) throws {
        let script = BufprobeProcess.sample("scripts/\(name).yaml")
        let run = try BufprobeProcess.run(["simulate", "--script", script, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        // Paths depend on the checkout's location and the version on the release: take both out.
        let root = BufprobeProcess.packageRoot.path + "/"
        var output = run.stdout.replacingOccurrences(of: root, with: "")
        output = output.replacingOccurrences(
            of: "\"bufprobe_version\" : \"\(BufprobeVersion.string)\"", with: "\"bufprobe_version\" : \"VERSION\"")
        // The FFmpeg libraries differ between machines: keep the key, drop the figures.
        output = output.replacingOccurrences(
            of: #""ffmpeg_versions" : \{[^}]*\}"#, with: "\"ffmpeg_versions\" : \"VERSIONS\"", options: .regularExpression)
        let golden = Self.goldenDirectory.appendingPathComponent("\(name).json")
        if ProcessInfo.processInfo.environment["BUFPROBE_UPDATE_GOLDEN"] == "1" {
            try output.write(to: golden, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        #expect(output == expected)
    }

    @Test("the same inputs give byte-identical JSON")
    func deterministic() throws {
        let arguments = ["simulate", "--bitrate", "2Mbit", "--duration", "3m", "--variation", "0.5", "--seed", "11",
                         "--trace", BufprobeProcess.sample("traces/3g-hsdpa.txt"), "--latency", "70ms", "--json"]
        let first = try BufprobeProcess.run(arguments)
        let second = try BufprobeProcess.run(arguments)
        #expect(first.status == 0)
        #expect(!first.stdout.isEmpty && first.stdout == second.stdout)
    }

    @Test("an HLS rendition downloads one request per segment")
    func hls() throws {
        let (run, decoded) = try simulate([BufprobeProcess.sample("hls/master.m3u8"), "--bandwidth", "1Mbit", "--latency", "30ms", "--variant", "1"])
        #expect(run.status == 0)
        let report = try #require(decoded)
        #expect(report.source.kind == "hls")
        #expect(report.source.layout == "segmented")
        #expect(report.source.units == 5 && report.requests == 5)
        #expect(report.source.duration == 10)
        #expect(report.ended)
    }

    @Test("both trace formats are read and echoed")
    func traces() throws {
        for trace in ["traces/3g-hsdpa.txt", "traces/sabre-4g.json"] {
            let (run, decoded) = try simulate(["--bitrate", "1Mbit", "--duration", "2m", "--trace", BufprobeProcess.sample(trace)])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(decoded?.network.trace == BufprobeProcess.sample(trace))
            #expect(decoded?.network.bandwidth == nil)
        }
    }

    @Test("a constrained network lowers the forward target to 15 s")
    func constrained() throws {
        let (_, decoded) = try simulate(["--bitrate", "1Mbit", "--duration", "1m", "--bandwidth", "10Mbit", "--constrained"])
        #expect(decoded?.policy.maxBuffer == 15)
        #expect(decoded?.network.constrained == true)
    }

    @Test(
        "usage and script mistakes exit 64 with one sentence and the usage line; unopenable media exits 2 without it",
        arguments: [
            (["--bitrate", "1Mbit", "--duration", "1m", "--bandwidth", "2parsecs"], Int32(64), "error: --bandwidth: '2parsecs' has an unknown unit 'parsecs'"),
            (["--bitrate", "1Mbit", "--duration", "1m"], 64, "error: no network given"),
            (["--bitrate", "1Mbit", "--bandwidth", "1Mbit"], 64, "error: synthetic media needs both --bitrate and --duration."),
            (["--bandwidth", "1Mbit"], 64, "error: nothing to simulate"),
            (["/nonexistent/clip.mp4", "--bandwidth", "1Mbit"], 2, "error: /nonexistent/clip.mp4: no such file."),
            (["README.md", "--bandwidth", "1Mbit"], 2, "is not a media file FFmpeg can read"),
            (["samples/hls/master.m3u8", "--bandwidth", "1Mbit", "--variant", "7"], 64, "has 2 variants (0 to 1); --variant 7 is not one of them."),
            (["--bitrate", "1Mbit", "--duration", "1m", "--bandwidth", "1Mbit", "--start-threshold", "5s"], 64, "error: the buffer policy is not usable"),
            (["samples/cbr.wav", "--bandwidth", "1Mbit", "--variant", "1"], 64, "error: --variant applies to HLS master playlists and DASH manifests;"),
            (["samples/cbr.wav", "--bandwidth", "1Mbit", "--seed", "3"], 64, "--variation and --seed apply to synthetic media"),
            (["http://127.0.0.1:9/live/index.m3u8", "--bandwidth", "1Mbit"], 64, "is a remote HLS playlist: simulate reads local playlists"),
            (["--bitrate", "1Mbit", "--duration", "1m", "--trace", "README.md"], 64, "error: the trace README.md is not usable: line 3 is not two numbers 'seconds Mbit/s'."),
            // Issue 10: files that never end are refused at their cap, not read into memory.
            (["--script", "/dev/zero"], 64, "error: the script /dev/zero is larger than 1 MiB, the most a script may be."),
            (["--bitrate", "1Mbit", "--duration", "1m", "--trace", "/dev/zero"], 64, "error: the trace /dev/zero is larger than 16 MiB, the most a trace may be."),
        ] as [([String], Int32, String)])
    func failures(arguments: [String], status: Int32, message: String) throws {
        let resolved = arguments.map { $0.hasPrefix("samples/") || $0 == "README.md" ? BufprobeProcess.packageRoot.appendingPathComponent($0).path : $0 }
        let run = try BufprobeProcess.run(["simulate"] + resolved)
        #expect(run.status == status, "\(run.stderr)")
        let root = BufprobeProcess.packageRoot.path + "/"
        #expect(run.stderr.replacingOccurrences(of: root, with: "").contains(message), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == (status == 64 ? 2 : 1), "\(run.stderr)")
        #expect(lines.first?.hasPrefix("error: ") == true)
        #expect(lines.dropFirst().first?.hasPrefix("usage: bufprobe simulate ") == (status == 64 ? true : nil), "\(run.stderr)")
    }

    @Test("a script naming a file that is not media fails at the media line, exit 2")
    func scriptMediaNotMedia() throws {
        let readme = BufprobeProcess.packageRoot.appendingPathComponent("README.md").path
        let script = try temporaryScript("network: { bandwidth: 1Mbit }\nmedia: \(readme)\n")
        defer { try? FileManager.default.removeItem(atPath: (script as NSString).deletingLastPathComponent) }
        let run = try BufprobeProcess.run(["simulate", "--script", script])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("error: \(script):2: media: \(readme) is not a media file FFmpeg can read"))
    }

    @Test("a seek past the end of the media fails at its line, exit 64")
    func seekPastEnd() throws {
        let script = try temporaryScript(
            "synthetic: { bitrate: 1Mbit, duration: 2m }\nnetwork: { bandwidth: 1Mbit }\ntimeline:\n  - { at: 1s, pause: 2s }\n  - { at: 5s, seek: 3m }\n")
        defer { try? FileManager.default.removeItem(atPath: (script as NSString).deletingLastPathComponent) }
        let run = try BufprobeProcess.run(["simulate", "--script", script])
        #expect(run.status == 64)
        #expect(run.stderr == "error: \(script):5: timeline[1].seek: seeks to 3m, past the end of the media (2m).\n\(simulateUsage)")
    }

    @Test("a script's trace that cannot be read fails at its line")
    func scriptTraceMissing() throws {
        let script = try temporaryScript("synthetic: { bitrate: 1Mbit, duration: 2m }\nnetwork:\n  trace: missing.txt\n")
        let directory = (script as NSString).deletingLastPathComponent
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try BufprobeProcess.run(["simulate", "--script", script])
        #expect(run.status == 64)
        #expect(run.stderr == "error: \(script):3: network.trace: the trace \(directory)/missing.txt cannot be read (check the path).\n\(simulateUsage)")
    }

    @Test("text output lists the settings, the timeline and the summary")
    func text() throws {
        let run = try BufprobeProcess.run(["simulate", BufprobeProcess.sample("cbr.wav"), "--bandwidth", "64kbit"])
        #expect(run.status == 0)
        for fragment in ["media ", "network  64 kbit/s", "policy   start 1s, resume 2s, max buffer 50s", "stall begins", "playback ended", "startup delay", "rebuffer ratio"] {
            #expect(run.stdout.contains(fragment), "\(fragment)")
        }
    }

    @Test("a paced run (--speed) writes the same report as the instant run; the live line shows the play, not a second timeline")
    func paced() throws {
        let arguments = ["simulate", BufprobeProcess.sample("cbr.wav"), "--bandwidth", "100kbit", "--json"]
        let instant = try BufprobeProcess.run(arguments)
        // tty forced into the pipe: plain mode stays quiet for a run shorter than its 5 s interval.
        let paced = try BufprobeProcess.run(arguments + ["--speed", "40", "--progress", "tty"])
        #expect(paced.status == 0)
        #expect(paced.stdout == instant.stdout)
        #expect(instant.stderr.isEmpty)
        #expect(paced.stderr.contains("Ended"), "\(paced.stderr)")
        for fragment in ["stall begins", "playback ended"] {
            #expect(!paced.stderr.contains(fragment), "\(paced.stderr)")
        }
    }

    @Test("one timeline: in the text report on stdout, never on stderr, whatever --progress says", arguments: ["none", "plain", "tty"])
    func oneTimeline(progress: String) throws {
        let run = try BufprobeProcess.run([
            "simulate", "--bitrate", "1Mbit", "--duration", "8s", "--bandwidth", "600kbit", "--speed", "1.2",
            "--progress", progress,
        ])
        #expect(run.status == 0)
        #expect(run.stdout.components(separatedBy: "playback ended").count == 2, "the timeline once: \(run.stdout)")
        #expect(!run.stderr.contains("playback ended") && !run.stderr.contains("stall begins"), "\(run.stderr)")
        switch progress {
        case "none": #expect(run.stderr.isEmpty, "\(run.stderr)")
        case "plain":
            // More than 5 s of wall time: status lines, and the final Ended line once.
            let ended = run.stderr.split(separator: "\n").filter { $0.hasPrefix("Ended") }
            #expect(ended.count == 1, "\(run.stderr)")
        default: #expect(run.stderr.contains("Ended"))
        }
    }

    @Test("with --download sequential, an MP4 with its index at the end plays nothing before the whole file is in, and says so")
    func moovAtEnd() throws {
        let path = BufprobeProcess.sample("h264-aac-moov-at-end.mp4")
        let (run, decoded) = try simulate([path, "--bandwidth", "400kbit", "--latency", "20ms", "--download", "sequential"])
        #expect(run.status == 0)
        let report = try #require(decoded)
        #expect(report.source.indexAtEnd)
        #expect(report.source.download == "sequential")
        #expect(report.requests == 1)
        #expect(abs(report.startupDelay - (0.02 + Double(report.source.bytes) * 8 / 400_000)) < 1e-6)
        #expect(run.stderr.contains("has its index (moov) after the media"))
        let (_, faststart) = try simulate([BufprobeProcess.sample("h264-aac.mp4"), "--bandwidth", "400kbit"])
        #expect(faststart?.source.indexAtEnd == false)
        #expect(faststart?.source.download == nil)
        #expect((faststart?.startupDelay ?? 99) < 1)
        let (_, fragmented) = try simulate([BufprobeProcess.sample("fragmented.mp4"), "--bandwidth", "400kbit"])
        #expect(fragmented?.source.indexAtEnd == false)
    }

    @Test("by default an MP4 with its index at the end is fetched by three range requests, as probe's range-request figures say")
    func moovAtEndRanges() throws {
        let path = BufprobeProcess.sample("h264-aac-moov-at-end.mp4")
        let (run, decoded) = try simulate([path, "--bandwidth", "512kbit", "--latency", "20ms"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(decoded)
        #expect(report.source.indexAtEnd)
        #expect(report.source.download == "ranges")
        #expect(report.requests == 3)
        // Head, index and media add up to the file: no byte is fetched twice.
        #expect(report.bytesReceived == report.source.bytes)
        #expect(run.stderr.contains("range requests"))
        // probe's minimum startup delay for a range-request player at 512 kbit/s, with the same latency, is
        // the earliest a start can be without a stall; the default thresholds start no earlier.
        let probed = try BufprobeProcess.run(["probe", "--json", "--latency", "20ms", path])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(probed.stdout.utf8)) as? [String: Any])
        let table = try #require(object["bandwidth_table"] as? [[String: Any]])
        let row = try #require(table.first { ($0["bandwidth_bps"] as? Double) == 512_000 })
        let minimum = try #require(row["startup_delay_range_requests"] as? Double)
        #expect(minimum > 0.06 && minimum < 1)
        if report.stallCount == 0 { #expect(report.startupDelay >= minimum - 1e-3) }
        #expect(report.startupDelay < 2, "\(report.startupDelay)")
    }

    @Test("a small hole (gap.ts, 3 s) is jumped when the playhead reaches it, before the download completes")
    func gapJumpedWhileDownloading() throws {
        let (run, decoded) = try simulate([BufprobeProcess.sample("gap.ts"), "--bandwidth", "250kbit"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(decoded)
        let jump = try #require(report.events.first { $0.type == "gap_skipped" })
        let complete = try #require(report.events.first { $0.type == "download_complete" })
        #expect(jump.time < complete.time)
        // Positions count from the playable start (1.48 s): the hole runs from 4 s for 3 s.
        #expect(abs(jump.position - 4) < 0.05)
        #expect(abs((jump.value ?? 0) - 3) < 0.05)
        #expect(report.stallCount == 0)
        #expect(report.ended)
    }

    @Test("times count from the playable start: a script's seek to 5s is reported as 5, not the media timestamp")
    func seekTargetsFromPlayableStart() throws {
        let script = try temporaryScript(
            """
            network: { bandwidth: 2Mbit }
            timeline:
              - { at: 2s, seek: 5s }
            """)
        let (run, decoded) = try simulate([BufprobeProcess.sample("h264-aac.ts"), "--script", script])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(decoded)
        #expect(report.source.startTime > 1)
        let seek = try #require(report.events.first { $0.type == "seek" })
        #expect(seek.value == 5)
        #expect(report.seeks.first?.to == 5)
        #expect(report.events.first { $0.type == "end" }.map { abs($0.position - report.source.duration) < 0.05 } == true)
    }

    @Test("a trace whose bandwidth is zero throughout reports stuck instead of spinning")
    func silentTraceIsStuck() throws {
        let trace = try temporaryScript("0 0\n1 0\n", name: "zero.txt")
        let (run, decoded) = try simulate(["--bitrate", "1Mbit", "--duration", "10s", "--trace", trace])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(decoded)
        #expect(report.events.last?.type == "stuck")
        #expect(!report.started)
    }

    @Test("--latency beside a Sabre trace that carries its own latency_ms is refused with a sentence, exit 64")
    func latencyWithSabreTraceRefused() throws {
        let (run, _) = try simulate([
            "--bitrate", "1Mbit", "--duration", "10s", "--trace", BufprobeProcess.sample("traces/sabre-4g.json"),
            "--latency", "40ms",
        ])
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("error: the trace"), "\(run.stderr)")
        #expect(run.stderr.contains("latency_ms"))
    }
}

/// The usage line under every simulate usage or script mistake.
private let simulateUsage = "usage: bufprobe simulate [<options>] [<media>]\n"
