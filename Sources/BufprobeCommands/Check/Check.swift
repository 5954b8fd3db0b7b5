public import ArgumentParser
import Foundation
import Logging
import MediaIO
import PlaybackModel
import ProgressLine
import CheckEngine
import BufprobeOutput
import InputReading

/// `bufprobe check URL...`: receives streams in real time, plays them through the shared player model,
/// and gives a pass/degraded/fail verdict with an exit code for scripts and CI.
public struct Check: AsyncParsableCommand {
    /// The help text, with verdicts and exit codes.
    public static let configuration = CommandConfiguration(
        // Named, not derived from the type name: the derivation (String(describing:) through Mirror)
        // cost about 5 million instructions at every start.
        commandName: "check",
        abstract: "Check that streams start fast and keep up: a pass/degraded/fail verdict from a real-time play.",
        discussion: """
            Examples:
              bufprobe check https://cdn.example.net/live/master.m3u8
              bufprobe check --json --duration 20s URL > check.json; echo $?
              bufprobe check --player hlsjs --variant lowest URL
              bufprobe check --rate 150k samples/h264-aac.mp4   a file as a slow link
              bufprobe check http://127.0.0.1:8081/slow/h264-aac.mp4   demo origin

            Inputs are any URL libavformat opens (progressive HTTP(S) MP4/WebM/TS/MP3, HLS .m3u8, DASH .mpd, \
            RTMP, SRT, UDP...) or local inputs: paths, - (standard input), file:, concat:... (read as fast as \
            possible, or at --rate to stand in for a network). \
            Each input is received in real time; every packet's presentation time becomes loaded media for the \
            model player, which starts once --start-threshold seconds are buffered, stalls when the playhead \
            reaches the end of the loaded media, and resumes at --resume-threshold. A VOD stream is received to \
            its end; a live stream (no declared duration) is sampled for --duration, 30 s by default.

            Verdicts: pass (started within --max-startup, no more stalls than --max-stalls (default 0), within \
            any --max-stall-time, --max-rebuffer-ratio, --max-latency and --max-drift given, received at least \
            --min-realtime-factor times as fast as real time (default 1)); degraded (played, but crossed one of those \
            thresholds (the reason names it), an HLS variant \
            peaked more than --max-peak-over-bandwidth (default \(BandwidthRule.toleranceText)) above its declared BANDWIDTH, the media has a hole longer than --max-hole (default 0), or more origin faults \
            than --max-origin-faults (default 0; each counts one: a variant playlist failed to load, a live HLS \
            playlist stopped updating for more than \(HLSPlaylistHealth.staleFactorText) its target duration, with --all-variants a variant \
            whose playlist or first segment fails or that is not what the master declares...)); fail (could not open, HTTP error, timeout, no playable stream, stream ended early).

            Live HLS: every media playlist reload FFmpeg makes is checked (media and discontinuity \
            sequence, stale, segments over the target duration, segments removed from the end); each \
            problem is a warning and a playlist_health event in JSON.

            Exit codes: 0 pass; 1 degraded; 2 fail; 64 usage error; 130 interrupted (Ctrl-C; SIGTERM 143), \
            after the report of what was measured until then, marked interrupted. With several inputs the \
            worst verdict wins.
            """)

    @Argument(help: ArgumentHelp("Stream URLs or local paths to check.", valueName: "url"), completion: .file())
    var inputs: [String]

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Longest any connect, open or read may block (default 10s; live HLS: above the target duration).",
            valueName: "duration"),
        transform: Seconds.argument)
    var timeout = Seconds(10)

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Stop receiving after this long (default: all of a VOD, 30s of a live stream).", valueName: "duration"),
        transform: Seconds.argument)
    var duration: Seconds?

    @Option(
        name: .customLong("header"),
        help: ArgumentHelp("An extra HTTP request header, as 'Name: value' (repeatable).", valueName: "header"))
    var headers: [String] = []

    @Option(help: ArgumentHelp("The HTTP User-Agent to send (default: bufprobe/VERSION).", valueName: "string"))
    var userAgent: String?

    @Option(
        help: ArgumentHelp(
            "Send CTA-5004 CMCD data so a CDN can tell a synthetic viewer: sid and cid on every request (headers: a CMCD-Session header on each), su and ot on the first (query: a CMCD= argument on the URL).",
            valueName: "query|headers"))
    var cmcd: CMCD.Mode?

    @Option(help: ArgumentHelp("CMCD's content id (cid), with --cmcd (at most 64 characters).", valueName: "id"))
    var cmcdContentId: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "HLS variant (DASH: video representation): best, lowest, a 0-based position below 1000, or a rate (400k, 2Mbit) for the highest variant that fits (default best).",
            valueName: "best|lowest|N|rate"),
        completion: .list(["best", "lowest"]),
        transform: VariantChoice.argument)
    var variant: VariantChoice = .best

    @OptionGroup(title: "Buffer policy")
    var policyOptions: BufferPolicyOptions

    @OptionGroup(title: "Verdict thresholds")
    var thresholdOptions: ThresholdOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("Check up to N inputs at the same time (1 to 64).", valueName: "N"))
    var parallel: Int = 1

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Deliver local files at this pace: a multiple of real time (2x, 0.5x) or a rate (400k, 2Mbit).",
            valueName: "rate"),
        transform: ReadRate.argument)
    var rate: ReadRate?

    @Option(
        help: ArgumentHelp(
            "Live HLS: where to start playing: hold-back (the playlist's HOLD-BACK, else 3 target durations, as players start), edge (the newest segment), window-start (the oldest listed), or seconds behind the edge.",
            valueName: "where"))
    var liveStart: LiveStart = .holdBack

    @Flag(
        help: ArgumentHelp(
            "HLS: also validate every variant of the master: its playlist loads, its first segment opens, and RESOLUTION, CODECS, FRAME-RATE, BANDWIDTH and AVERAGE-BANDWIDTH match the media."))
    var allVariants = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "With --all-variants: the first N segments of each variant are sized for the BANDWIDTH comparison (1 to \(VariantProber.maxSegments)).",
            valueName: "N"))
    var allVariantsSegments = VariantProber.defaultSegments

    @Option(
        help: ArgumentHelp(
            "Write the throughput and request latency measured over time to FILE as a trace simulate --trace replays (one input only; latency: each open through FFmpeg's io_open, to the response head, of the input and its playlists, segments and keys).",
            valueName: "file"),
        completion: .file())
    var recordTrace: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "--record-trace's format: bufprobe (columns seconds Mbit/s latency_ms), sabre (Sabre's JSON, with latency_ms) or mahimahi (one line per 1500-byte delivery, ms; no latency).",
            valueName: "format"))
    var traceFormat: ThroughputRecording.Format = .bufprobe

    @Option(
        help: ArgumentHelp(
            "Write every event the check observed (packets, playlist loads, requests, FFmpeg's events, LL-HLS parts and reloads, the end) to FILE as JSON lines, which --replay-events turns into the same report without the network (one input only; format: docs/record-events.md).",
            valueName: "file"),
        completion: .file())
    var recordEvents: String?

    @Option(
        help: ArgumentHelp(
            "Replay the events --record-events wrote to FILE, in virtual time, instead of checking: give the same URL and options, and the report is the recorded run's.",
            valueName: "file", visibility: .hidden),
        completion: .file())
    var replayEvents: String?

    @Flag(
        name: .customLong("no-low-latency"),
        help: "Low-latency HLS (a media playlist with EXT-X-PART-INF and CAN-BLOCK-RELOAD=YES): play it as FFmpeg does, whole segments, instead of part by part with blocking playlist reloads and the LL-HLS checks (default: parts).")
    var noLowLatency = false

    @Flag(
        name: .customLong("deny-private"),
        help: "Refuse every request to a loopback, private, link-local or cloud-metadata address (169.254.169.254), checked after name resolution: the input, everything it leads to and every HTTP redirect (default: off).")
    var denyPrivate = false

    @Flag(help: "Write JSON (one document, or an array for several inputs) instead of text.")
    var json = false

    @Option(
        help: ArgumentHelp(
            "Also write a JUnit XML report to FILE for CI: one test case per input, degraded as a failure, fail as an error.",
            valueName: "file"),
        completion: .file())
    var junit: String?

    @Flag(name: .shortAndLong, help: "Show FFmpeg's own log and bufprobe's diagnostics on stderr.")
    var verbose = false

    @OptionGroup var progressOptions: ProgressOptions

    /// Creates the command with its defaults (ArgumentParser fills in the options).
    public init() {}

    /// Rejects option values the check cannot use, with a sentence naming the option (exit 64).
    public func validate() throws {
        // The check's own values, by the one validating initializer every front end calls.
        _ = try makeSettings()
        if let id = cmcdContentId {
            guard cmcd != nil else { throw ValidationError("--cmcd-content-id needs --cmcd query or --cmcd headers.") }
            guard id.count <= CMCD.longestString, !id.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw ValidationError("--cmcd-content-id takes at most \(CMCD.longestString) characters and no control characters.")
            }
        }
        guard (1...Self.maxParallel).contains(parallel) else {
            throw ValidationError("--parallel must be between 1 and \(Self.maxParallel), got \(parallel).")
        }
        if recordEvents != nil || replayEvents != nil, inputs.count != 1 {
            throw ValidationError("--record-events and --replay-events take one input; give one URL, not \(inputs.count).")
        }
        if recordTrace != nil, inputs.count != 1 {
            throw ValidationError("--record-trace records one input; give one URL, not \(inputs.count).")
        }
        if rate != nil, let url = inputs.first(where: { InputKind($0).isNetwork }) {
            throw ValidationError("--rate paces local files only; \(url) is received at the speed the network delivers it.")
        }
    }

    /// The most inputs checked at once (`--parallel`): each holds a thread and a connection.
    static let maxParallel = 64

    private var policy: BufferPolicy { policyOptions.policy() }

    private var thresholds: VerdictThresholds { thresholdOptions.thresholds() }

    /// The check's settings from the parsed options; a value no check can use is a usage error, in the
    /// option's name.
    func makeSettings() throws(ValidationError) -> CheckSettings {
        do {
            return try CheckSettings(
                timeout: timeout, duration: duration, policy: policy, player: policyOptions.player, thresholds: thresholds,
                headers: headers, userAgent: userAgent,
                // One session id (sid) for the run: every input of one `check` shares it.
                cmcd: cmcd.map { CMCD(mode: $0, contentID: cmcdContentId) }, variant: variant, liveStart: liveStart,
                rate: rate, allVariants: allVariants, allVariantsSegments: allVariantsSegments,
                recordsTrace: recordTrace != nil, lowLatency: !noLowLatency,
                requestPolicy: denyPrivate ? RequestPolicy(denyPrivate: true) : nil)
        } catch {
            throw ValidationError(error.sentence { value in
                switch value {
                case .timeout: "--timeout"
                case .maxStartup: "--max-startup"
                case .duration: "--duration"
                }
            })
        }
    }

    /// Checks every input (up to `--parallel` at once) with the live line showing, prints the
    /// summaries or JSON, and exits with the worst verdict's code.
    public func run() async throws {
        // Playlists of up to 16 MiB are read and freed at every reload (`LargeBlocks`).
        LargeBlocks.returnToSystem()
        if let replayEvents { return try replay(replayEvents) }
        let line = progressOptions.makeLiveLine()
        let logger = Logger(label: "bufprobe") { label in
            LiveLineLogHandler(label: label, line: line, logLevel: verbose ? .trace : .critical)
        }
        let runner = CheckRunner(logger: logger)
        let running = runner.running
        // The cancelled checks return promptly and the code below ends the run with 128 + the
        // signal; the grace period covers a call that never returns.
        let interrupt = InterruptHandler.install(line: line, grace: .seconds(3)) { running.cancelAll() }
        // Ctrl-Z erases the line and shows the cursor while stopped (the check's clock runs on: a stop
        // shows as the network time it is).
        let suspend = TerminalSuspend.install(line: line)
        defer {
            suspend.uninstall()
            interrupt.uninstall()
        }
        line.show()
        let rows = LiveRows(line: line)

        let settings = try makeSettings()
        let (began, clock) = (Date(), ContinuousClock())
        let start = clock.now
        var recording: ThroughputRecording?
        var events: [CheckEvent.Timed]?
        let recordsEvents = recordEvents != nil
        let (reports, final) = await withTaskGroup(of: (Int, CheckReport, CheckProgress, ThroughputRecording?, [CheckEvent.Timed]?).self) { group in
            var results = [CheckReport?](repeating: nil, count: inputs.count)
            var next = 0
            func launch() {
                let index = next
                let source = inputs[index]
                next += 1
                group.addTask {
                    let session = CheckSession(source: source, settings: settings, recordsEvents: recordsEvents)
                    session.observeProgress(every: LiveRows.interval) { rows.post($0.snapshot, of: index) }
                    let report = await runner.report(of: session, threadName: "bufprobe check \(index)")
                    return (index, report, session.progress(), session.recording(), session.events())
                }
            }
            while next < min(parallel, inputs.count) { launch() }
            var final: ProgressSnapshot?
            var finished = 0
            for await (index, report, progress, recorded, observed) in group {
                results[index] = report
                if let recorded { recording = recorded }
                if let observed { events = observed }
                finished += 1
                rows.end(index)
                var frame = progress.snapshot
                // A failed check's player may still read Playing or Loading; the frame says what happened.
                if report.verdict == .fail { frame.state = .failed }
                // Several inputs: the title tells their final frames apart.
                frame.keepsTitle = inputs.count > 1
                // Each input's final frame stays on screen: above the others while they go on, and the
                // last one as the line's final frame.
                if finished < inputs.count { line.printFinalAbove(frame) } else { final = frame }
                // Stopped: the inputs not begun are not begun.
                if next < inputs.count, interrupt.exitStatus == nil { launch() }
            }
            return (results.compactMap { $0 }, final)
        }
        // Ctrl-C, SIGTERM...: the checks it cancelled report what they measured, marked interrupted, under
        // the Interrupted frame; the exit status stays 128 + the signal.
        let interrupted = interrupt.exitStatus
        if interrupted != nil { line.finishInterrupted() } else { line.finish(final: final) }
        if let recordTrace, let recording {
            do {
                try recording.render(traceFormat, source: inputs[0]).write(toFile: recordTrace, atomically: true, encoding: .utf8)
            } catch {
                Diagnostics.error("the trace could not be written to \(recordTrace) (check the path).")
                throw ExitCode(CheckVerdict.fail.exitCode)
            }
        }

        if let recordEvents, let events {
            do {
                try CheckReplay.lines(events, source: inputs[0]).write(toFile: recordEvents, atomically: true, encoding: .utf8)
            } catch {
                Diagnostics.error("the events could not be written to \(recordEvents) (check the path).")
                throw ExitCode(CheckVerdict.fail.exitCode)
            }
        }

        if let junit {
            let elapsed = (clock.now - start).seconds
            do {
                try CheckJUnit.render(reports, time: elapsed, timestamp: began).write(toFile: junit, atomically: true, encoding: .utf8)
            } catch {
                Diagnostics.error("the JUnit report could not be written to \(junit) (check the path).")
                throw ExitCode(interrupted ?? CheckVerdict.fail.exitCode)
            }
        }

        try report(reports, interrupted: interrupted)
    }

    /// Prints `reports` (text or JSON) and exits with the worst verdict's code, or `interrupted`.
    func report(_ reports: [CheckReport], interrupted: Int32?) throws {
        var worst = CheckVerdict.pass
        for (position, report) in reports.enumerated() {
            worst = max(worst, report.verdict)
            if report.interrupted == true {
                Diagnostics.warning("\(report.source): interrupted; the report covers what was measured until then.")
            } else if report.verdict == .fail, json || !Diagnostics.reportSharesTerminal {
                // On one terminal the text report's verdict line says it: once is enough.
                Diagnostics.error(report.reason)
            }
            if !json {
                Diagnostics.standardOutput((position > 0 ? "\n" : "") + CheckText.render(report))
            }
        }
        if json {
            let text = reports.count == 1 ? try JSONOutput.string(reports[0]) : try JSONOutput.string(reports)
            Diagnostics.standardOutput(text + "\n")
        }
        if let interrupted { throw ExitCode(interrupted) }
        if worst != .pass { throw ExitCode(worst.exitCode) }
    }
}

extension CMCD.Mode: ExpressibleByArgument {}
