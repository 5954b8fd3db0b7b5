public import ArgumentParser
import Foundation
import MediaIO
import PlaybackModel
import ProgressLine
import BufprobeOutput
import SimulateEngine
import ProbeEngine

/// `bufprobe simulate MEDIA`: plays media over a scripted network in virtual time, with the same player
/// state machine `check` uses, and reports startup delay, stalls and QoE.
public struct Simulate: AsyncParsableCommand {
    /// The command's name, abstract and help text (units, script format, traces, exit codes).
    public static let configuration = CommandConfiguration(
        // Named, not derived from the type name: the derivation (String(describing:) through Mirror)
        // cost about 5 million instructions at every start.
        commandName: "simulate",
        abstract: "Simulate playing media over a given network: startup delay, stalls, rebuffer ratio.",
        discussion: """
            Examples:
              bufprobe simulate samples/h264-aac.mp4 --bandwidth 150k
              bufprobe simulate clip.mp4 --bandwidth 2Mbit --latency 80ms --player hlsjs
              bufprobe simulate clip.mp4 --trace samples/traces/3g-hsdpa.txt
              bufprobe simulate samples/hls/master.m3u8 --abr bola --bandwidth 400k
              bufprobe simulate clip.mp4 --script samples/scripts/seek-and-pause.yaml

            The media's packets (a local file, a local HLS playlist or DASH manifest, or --bitrate/--duration \
            synthetic media) are downloaded byte for byte in virtual time: one HTTP request read in byte order \
            (one request per segment for HLS and DASH, an initialization segment once per variant), latency once per request, a new request after a seek out of the buffer; \
            an MP4 with its index (moov) at the end by three range requests, the head, the index, the media \
            (--download ranges, the default; --download sequential: one request, nothing plays before the whole file is in). The \
            player is bufprobe's shared model: start at --start-threshold buffered, resume after a stall at \
            --resume-threshold, stop loading at --max-buffer (defaults 1 s, 2 s, 50 s, as Media3's \
            DefaultLoadControl; --constrained lowers the target to 15 s, a data-saver network).

            Units: durations 250ms, 1.5s, 2m, 1h, 1h30m, 1:30 or plain seconds; rates 400k \
            (bit/s), 500kbit, 2Mbit, 2Mbps, 250kB/s (bytes); the same in scripts.

            Script (YAML or JSON; command-line options override it):
              media: clip.mp4   # or synthetic: { bitrate: 3Mbit, duration: 10m }
              network: { bandwidth: 2Mbit, latency: 40ms }   # or trace: FILE
              policy: { start: 1s, resume: 2s, max_buffer: 50s, back_buffer: 0s }
              timeline:         # at = session time since play was pressed
                - { at: 30s, bandwidth: 500kbit }
                - { at: 60s, outage: 10s }
                - { at: 90s, seek: 2m }
                - { at: 100s, pause: 5s }
                - { at: 120s, rate: 1.5 }
                - { at: 130s, latency: 100ms }
              # synthetic also takes variation: 0.2, seed: 7; network takes
              # constrained: true; autoplay: false opens paused until
              # - { at: 5s, play }

            Traces (--trace or network.trace): two columns "seconds Mbit/s" per line (Pensieve, FCC, HSDPA), \
            and an optional third, the latency_ms of a request begun in that row (check --record-trace), \
            or Sabre's JSON list of {duration_ms, bandwidth_kbps, latency_ms}; looped when shorter than the \
            session.

            Adaptive bit rate (--abr, a local HLS master or DASH manifest, whose video representations are the \
            variants): each segment is fetched at the variant the rule \
            picks when its request goes out; the variants' real segment sizes are read. fixed: --variant \
            throughout (the default, unless --player names a player with its own ABR, \(Self.playersWithAbr): then that \
            player's ABR, --abr and --variant override it, docs/model.md). throughput: the highest BANDWIDTH <= --abr-safety (0.9, dash.js) x the \
            mean throughput of the last --abr-window (3, Sabre) segments. bola: BOLA-BASIC (Spiteri et al., \
            INFOCOM 2016, as Sabre): buffer-based, --bola-target 25s, --bola-gp 5. dynamic: Sabre's Dynamic \
            (src/sabre.py, class Dynamic), both rules asked for every segment: BOLA's pick once more than \
            --dynamic-switch (10s) is buffered and BOLA picks at least throughput's variant, throughput's \
            again below it when BOLA picks less (dash.js 5.1.1 differs: docs/model.md). The report adds \
            the variants played, every switch and QoE = (sum q_k - lambda sum |q_k+1 - q_k| - mu stall s) / K \
            over the K played segments, q in kbit/s (Yin et al., SIGCOMM 2015; --qoe-switch-weight lambda 1, \
            --qoe-stall-weight mu = top variant's kbit/s).

            Exit codes: 0 simulated (stalls or not; see the report); 2 the media could not be opened or is \
            not media; 3 simulated, but the media stops short of what it declares (truncated or damaged: \
            the session plays what was read, and a warning, the report and "complete": false in --json say so, \
            as probe's exit 3); 4 the buffer policy a --player preset derives from the media cannot play it; \
            64 usage error or a mistake in the script (one sentence naming the line and field).
            """)

    @Argument(
        help: ArgumentHelp(
            "A media file, local HLS playlist or local DASH manifest (omit with --bitrate/--duration).", valueName: "media"),
        completion: .file())
    var media: String?

    @Option(
        help: ArgumentHelp("A YAML or JSON script: media, network, policy, timeline.", valueName: "file"),
        completion: .file(extensions: ["yaml", "yml", "json"]))
    var script: String?

    @Option(
        parsing: .unconditional, help: ArgumentHelp("Synthetic media's total bit rate, e.g. 3Mbit.", valueName: "rate"),
        transform: BitRate.mediaArgument)
    var bitrate: BitRate?

    @Option(
        parsing: .unconditional, help: ArgumentHelp("Synthetic media's length, e.g. 10m.", valueName: "duration"),
        transform: Seconds.argument)
    var duration: Seconds?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Synthetic video frame size variation, 0 to 1 (0 = constant bit rate).", valueName: "fraction"))
    var variation: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Seed of the synthetic variation.", valueName: "n"))
    var seed: UInt64?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "For a master playlist or DASH manifest, which variant (video representation) to simulate (0 = first listed).",
            valueName: "index"))
    var variant: Int?

    @Option(
        parsing: .unconditional, help: ArgumentHelp("Constant bandwidth, e.g. 2Mbit.", valueName: "rate"),
        transform: BitRate.bandwidthArgument)
    var bandwidth: BitRate?

    @Option(
        parsing: .unconditional, help: ArgumentHelp("Latency of each request, e.g. 40ms (default 0).", valueName: "duration"),
        transform: Seconds.argument)
    var latency: Seconds?

    /// `--download`'s words.
    enum Download: String, RawValueArgument, Sendable {
        /// Range requests: head, index, media.
        case ranges
        /// One request in file order.
        case sequential

        var mode: DownloadMode {
            switch self {
            case .ranges: return .ranges
            case .sequential: return .sequential
            }
        }
    }

    @Option(
        help: ArgumentHelp(
            "How an MP4 whose index (moov) follows the media is fetched: ranges (the default, as libavformat, so check and mpv, fetches it over HTTP: a request for the head, one for the index at the tail, one for the media, latency each) or sequential (one request in file order: nothing plays before the whole file is in). Other files download the same either way.",
            valueName: "mode"))
    var download: Download?

    @Option(
        help: ArgumentHelp("A bandwidth trace file (two-column text or Sabre JSON).", valueName: "file"),
        completion: .file())
    var trace: String?

    @Option(
        help: ArgumentHelp(
            "Run every trace file in a folder (file-name order): one row per trace plus the totals.", valueName: "dir"),
        completion: .directory)
    var traceDir: String?

    @Flag(help: "Fetch the video only, not the separate audio track of a DASH manifest or HLS master (fetched beside the video by default, sharing the link).")
    var noAudioTrack = false

    @OptionGroup(title: "Buffer policy (overrides the script's)")
    var policyOptions: BufferPolicyOptions

    @OptionGroup(title: "Adaptive bit rate (a master playlist or DASH manifest with --abr)")
    var abrOptions: AbrOptions

    @Option(
        help: ArgumentHelp(
            "Also draw the session as SVG: buffer ahead, bandwidth offered, the fetched variant's bit rate, stalls.",
            valueName: "file.svg"),
        completion: .file(extensions: ["svg"]))
    var plot: String?

    @Flag(help: "Write JSON instead of text.")
    var json = false

    @Flag(help: "Play the simulation in real time (same as --speed 1) on the live line; the report follows on stdout.")
    var realtime = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Play the simulation at this many times real time on the live line.", valueName: "factor"),
        transform: Factor.argument)
    var speed: Factor?

    @Flag(help: "Watch it in a terminal and act: left/right arrow seek 10 s, space pauses and resumes, q stops (implies --realtime unless --speed is given).")
    var interactive = false

    @Flag(name: .shortAndLong, help: "Show FFmpeg's own log and bufprobe's diagnostics on stderr.")
    var verbose = false

    @OptionGroup(title: "Live line (with --realtime or --speed)")
    var progressOptions: ProgressOptions

    /// Creates the command with every option at its default (ArgumentParser fills them in).
    public init() {}

    /// Rejects option combinations that cannot mean anything, before any media is read.
    public func validate() throws {
        if let variant, variant < 0 { throw ValidationError("--variant must be 0 or more, got \(variant).") }
        if variant != nil, let rule = abrOptions.abr, rule != .fixed {
            throw ValidationError("--variant chooses the variant of --abr fixed; --abr \(rule.rawValue) chooses its own.")
        }
        try abrOptions.validateRule(hasPlayerModel: engineOptions.playerModel != nil)
        if let variation, !(0...1).contains(variation) { throw ValidationError("--variation must be between 0 and 1.") }
        if media != nil, bitrate != nil || duration != nil {
            throw ValidationError("give either MEDIA or --bitrate/--duration for synthetic media, not both.")
        }
        if bandwidth != nil, trace != nil { throw ValidationError("give either --bandwidth or --trace, not both.") }
        if traceDir != nil, bandwidth != nil || trace != nil {
            throw ValidationError("--trace-dir gives the network: drop --bandwidth and --trace.")
        }
        if traceDir != nil, realtime || speed != nil || interactive || plot != nil {
            throw ValidationError("--trace-dir runs instantly and prints a table: it does not combine with --realtime, --speed, --interactive or --plot.")
        }
        if media != nil, variation != nil || seed != nil {
            throw ValidationError("--variation and --seed apply to synthetic media (--bitrate/--duration), not to MEDIA.")
        }
    }

    /// Loads the plan, runs the simulation (instantly, or paced on the live line) and prints the report.
    public func run() async throws {
        // FFmpeg's own log (a damaged file's "Packet corrupt", "Invalid NAL unit size") goes through
        // bufprobe's sink, silent unless --verbose: what it means reaches the report as one warning.
        FFmpegLog.install(logger: Diagnostics.logger(verbose: verbose), verbose: verbose)
        if let traceDir {
            try runBatch(traceDir)
            return
        }
        let factor = speed?.value ?? (realtime || interactive ? 1 : nil)
        var options = engineOptions
        options.runsAhead = factor == nil
        let plan = try makePlan(options)
        if let warning = plan.source.warning { Diagnostics.warning(warning) }
        // Said on stderr too, unless the text report below shows it on the same terminal.
        if let shortfall = plan.source.shortfall, json || !Diagnostics.reportSharesTerminal { Diagnostics.warning(shortfall) }
        var engine: SimulationEngine
        if let factor {
            engine = plan.makeEngine()
            var keyboard: SimulationKeyboard?
            if interactive {
                guard let raw = SimulationKeyboard() else {
                    throw UsageError("--interactive needs a terminal on standard input", usage: Self.oneLineUsage)
                }
                keyboard = raw
            }
            defer { keyboard?.restore() }
            try await play(&engine, speed: factor, title: plan.title, keyboard: keyboard)
        } else {
            engine = plan.runToEnd()
        }
        let report = plan.report(of: engine)
        if let plot {
            let svg = plan.plot()
            do {
                try Data(svg.utf8).write(to: URL(fileURLWithPath: plot))
            } catch {
                Diagnostics.error("the plot could not be written to \(plot) (\(error.localizedDescription)); check the directory and permissions.")
                throw ExitCode(74)
            }
        }
        // The report on stdout is the same whether the run was instant or paced.
        if json {
            Diagnostics.standardOutput(try JSONOutput.string(report) + "\n")
        } else {
            Diagnostics.standardOutput(SimulateText.render(report))
        }
        if !report.complete { throw ExitCode(Self.incompleteExitCode) }
    }

    /// The presets whose player's own ABR picks the variants: `hlsjs, shaka, dashjs`.
    static var playersWithAbr: String { PlayerPreset.allCases.filter { $0.abr != nil }.map(\.rawValue).joined(separator: ", ") }

    /// The exit code of a simulation whose media stops short of what it declares: probe's for an input
    /// read only in part (`ProbeOutcome.incomplete`), as both report what was read.
    static let incompleteExitCode = ProbeOutcome.incomplete.rawValue

    /// The plan for `options`, or the error's sentence and exit code.
    private func makePlan(_ options: SimulationOptions) throws -> SimulationPlan {
        do {
            return try SimulationPlan(options: options)
        } catch {
            if error.exitCode == UsageError.exitCode { throw UsageError(error.sentence, usage: Self.oneLineUsage) }
            Diagnostics.error(error.sentence)
            throw ExitCode(error.exitCode)
        }
    }

    /// `--trace-dir`: the same simulation over every trace file in `directory`, one row each and totals.
    private func runBatch(_ directory: String) throws {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw UsageError("the trace folder \(directory) cannot be read (check the path).", usage: Self.oneLineUsage)
        }
        let traces = names.filter { !$0.hasPrefix(".") }.sorted()
            .map { (directory as NSString).appendingPathComponent($0) }
            .filter { path in
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
            }
        guard !traces.isEmpty else {
            throw UsageError("the trace folder \(directory) holds no trace files.", usage: Self.oneLineUsage)
        }
        var rows: [SimulateBatchReport.Row] = []
        var shortfall: String?
        for trace in traces {
            var options = engineOptions
            options.trace = trace
            options.runsAhead = true
            let plan = try makePlan(options)
            // The same media under every trace: said once.
            if shortfall == nil, let sentence = plan.source.shortfall {
                shortfall = sentence
                Diagnostics.warning(sentence)
            }
            rows.append(SimulateBatchReport.Row(trace: trace, report: plan.report(of: plan.runToEnd())))
        }
        let batch = SimulateBatchReport(traceDir: directory, traces: rows)
        if json {
            Diagnostics.standardOutput(try JSONOutput.string(batch) + "\n")
        } else {
            Diagnostics.standardOutput(batch.text)
        }
        if shortfall != nil { throw ExitCode(Self.incompleteExitCode) }
    }

    /// Advances the engine with the wall clock scaled by `speed`, drawing the live line on stderr (its
    /// state word and markers show the events; the timeline itself is the report's, on stdout, once);
    /// with a keyboard, keys act on the player.
    private func play(
        _ engine: inout SimulationEngine, speed: Double, title: String, keyboard: SimulationKeyboard?
    ) async throws {
        let line = progressOptions.makeLiveLine()
        // Any ending signal gives the terminal back before the final frame; Ctrl-Z gives it back
        // while stopped and takes it again on `fg`.
        InterruptHandler.install(line: line, onInterrupt: { keyboard?.restore() })
        let suspend = TerminalSuspend.install(
            line: line, beforeStop: { keyboard?.restore() }, afterContinue: { keyboard?.enterRawMode() })
        defer { suspend.uninstall() }
        line.show()
        if keyboard != nil {
            line.printAbove("keys: left/right seek 10 s, space pause/resume, q stop; click the bar to seek there")
        }
        let clock = ContinuousClock()
        let start = clock.now
        while true {
            // Time stopped by Ctrl-Z is not session time: after `fg` the session goes on from where it was.
            engine.run(until: (start.duration(to: clock.now).seconds - suspend.stoppedSeconds) * speed)
            var quit = false
            if let keyboard {
                for key in keyboard.keys(waitingAtMost: 0) {
                    let position = engine.session.presentedCurrentTime
                    switch key {
                    case .back: engine.perform(.seek(max(0, position - 10)))
                    case .forward: engine.perform(.seek(min(engine.media.duration, position + 10)))
                    case .togglePause:
                        if case .paused = engine.player.state {
                            engine.perform(.play)
                        } else {
                            engine.perform(.pause(.infinity))
                        }
                    case .quit: quit = true
                    case .click(let column):
                        // The line's time axis is the media's, from its start; a click off the bar does nothing.
                        if let time = line.time(atColumn: column) {
                            engine.perform(.seek(min(max(0, time), engine.media.duration)))
                        }
                    }
                }
            }
            line.update(SimulationSnapshot.make(engine, title: title, speed: speed))
            if engine.isFinished || quit { break }
            try await Task.sleep(for: .milliseconds(40))
        }
        line.finish()
    }
}
