public import ArgumentParser
import Foundation
import Logging
import MediaIO
import PlaybackModel
import ProgressLine
import CheckEngine
import BufprobeOutput
import ProbeEngine
import InputReading

/// `bufprobe probe FILE...`: reads every packet of each input and reports what is in it, its loaded
/// ranges and gaps, and what looks wrong.
public struct Probe: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        // Named, not derived from the type name: the derivation (String(describing:) through Mirror)
        // cost about 5 million instructions at every start.
        commandName: "probe",
        abstract: "Read every packet of media files and report streams, loaded ranges, gaps and problems.",
        usage: "bufprobe probe [<options>] <file> ...",
        discussion: """
            Examples:
              bufprobe probe samples/gap.ts
              bufprobe probe --json clip.mp4 > clip.json
              bufprobe probe --plot bitrate.svg clip.mp4
              curl -s https://cdn.example.net/clip.ts | bufprobe probe -

            Inputs are local paths, - or pipe: (standard input), file:, concat:a|b, concatf:, subfile:, data: \
            or network URLs libavformat opens. Results go to stdout, progress and \
            diagnostics to stderr.

            Exit codes: 0 every input read to the end; 2 an input could not be opened or is not media; \
            3 reading started but stopped early (truncated or damaged, a URL that sent nothing for --timeout \
            seconds; --json still holds what was read, with "complete": false); 1 the --plot file could not be written; 64 usage error; 130 \
            interrupted. With several inputs the worst wins (2 over 3 over 0).

            Buffering diagnostics: for a progressive download in file order, the bandwidth needed to start \
            within 1, 2, 5 and 10 s without a stall, and the startup delay at a ladder of bandwidths \
            (a player that starts that many seconds after its first request and needs whole packets; \
            --latency adds a time to first byte per request). MP4/MOV: whether the index (moov) comes \
            before the media data (fast start). Interleaving, bit-rate peaks over 1/5/10 s, GOP lengths, \
            and for HLS each segment's bit rate against the playlist's BANDWIDTH.

            Progress: on a terminal, one live line on stderr shows each file's loaded ranges growing (holes \
            stay visible), the read position and, for slow inputs, the read rate; it is erased before the \
            summary is printed. Piped or TERM=dumb: a plain status line every 5 s for long reads, none for \
            short ones. Ctrl-C stops reading, leaves a final frame saying Interrupted, writes the report of what \
            was read ("complete": false) and exits 130.
            """)

    @Argument(help: ArgumentHelp("Media files or URLs to read.", valueName: "file"), completion: .file())
    var inputs: [String]

    @Flag(help: "Write JSON (one document, or an array for several inputs) instead of text.")
    var json = false

    @Option(
        name: [.customShort("o"), .customLong("option")],
        help: ArgumentHelp("A libavformat option for opening, as key=value (repeatable).", valueName: "key=value"))
    var options: [String] = []

    @Flag(name: .shortAndLong, help: "Show FFmpeg's own log and bufprobe's diagnostics on stderr.")
    var verbose = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Longest bufprobe waits for data (connect, open, packet, playlist reload) before giving up (default 10s).",
            valueName: "duration"),
        transform: Seconds.argument)
    var timeout = Seconds(10)

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Latency per request assumed by the connection needs (default 0).", valueName: "duration"),
        transform: Seconds.argument)
    var latency = Seconds(0)

    @Option(help: ArgumentHelp(
        "Write an SVG plot of the bit rate per second, keyframes and needed bandwidth (one input only).",
        valueName: "file.svg"),
        completion: .file(extensions: ["svg"]))
    var plot: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "A startup delay to add to the needs table, whose bandwidth --plot draws (default 2s).",
            valueName: "duration"),
        transform: Seconds.argument)
    var plotStartupDelay = Seconds(2)

    @OptionGroup(title: "Progress line")
    var progressOptions: ProgressOptions

    public init() {}

    public func validate() throws {
        for option in options where !option.contains("=") {
            throw ValidationError("--option takes key=value, got '\(option)'.")
        }
        if let plot {
            if inputs.count > 1 { throw ValidationError("--plot takes one input, got \(inputs.count).") }
            if !plot.lowercased().hasSuffix(".svg") {
                throw ValidationError("--plot writes SVG only: name the file .svg (convert it with rsvg-convert if you need PNG).")
            }
        }
        if timeout.value <= 0 {
            throw ValidationError("--timeout must be more than 0 seconds, got \(timeout).")
        }
        if plotStartupDelay.value <= 0 {
            throw ValidationError("--plot-startup-delay must be more than 0 seconds.")
        }
    }

    public func run() async throws {
        let logger = Diagnostics.logger(verbose: verbose)
        FFmpegLog.install(logger: logger, verbose: verbose)
        PacketAllocator.tune()
        let avOptions = Dictionary(
            options.map { option -> (String, String) in
                let parts = option.split(separator: "=", maxSplits: 1)
                return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
            }, uniquingKeysWith: { _, last in last })

        let line = progressOptions.makeLiveLine(thumbByDefault: false)
        // Ctrl-C cancels this one; each input gets a child with its own timeout.
        let interrupter = Interrupter(timeout: nil)
        // Ctrl-C (or SIGTERM...) stops the read; the loop below then reports what was read, complete
        // false, and exits 128 + the signal. The grace period covers a call that never returns.
        let interrupt = InterruptHandler.install(line: line, grace: .seconds(3)) { interrupter.cancel() }
        // Ctrl-Z erases the line and shows the cursor while stopped.
        let suspend = TerminalSuspend.install(line: line)
        defer {
            suspend.uninstall()
            line.finish(keep: false)
        }

        var reports: [ProbeReport] = []
        var worst = ProbeOutcome.complete
        var plotFailed = false
        for input in inputs where interrupt.exitStatus == nil {
            let title = InputKind.title(of: input)
            line.update(ProgressSnapshot(state: .loading, title: title, isIndeterminate: true, showsPlayed: false))
            line.show()
            var reader = ProbeReader(source: input)
            reader.options = avOptions
            // Every HTTP request names bufprobe (FFmpeg's own would be Lavf/...); an explicit
            // `-o user_agent=...` wins, and other inputs would report the option unused.
            let scheme = input.prefix { $0 != ":" }.lowercased()
            if scheme.hasSuffix("http") || scheme.hasSuffix("https"), avOptions["user_agent"] == nil {
                reader.options["user_agent"] = BufprobeVersion.userAgent
            }
            // Every input gets the deadline, local ones too: a local live playlist (no ENDLIST) makes the HLS
            // demuxer wait for reloads that never come, polling only the interrupt callback; a regular file's
            // reads never come near it, and a FIFO or stdin whose writer stalls that long ends like a URL.
            reader.interrupter = Interrupter(
                timeout: .bounded(seconds: timeout.value), parent: interrupter, input: input)
            reader.timeout = timeout.value
            reader.wantsProgress = { line.isDue }
            reader.onProgress = { progress in line.update(Self.snapshot(progress, title: title)) }
            reader.diagnostics.latency = latency.value
            reader.diagnostics.extraStartupDelay = plotStartupDelay.value
            reader.diagnostics.collectTimeline = plot != nil
            let (report, outcome, timeline) = reader.readWithTimeline()
            // The summary goes to stdout, the line lives on stderr: erase it first so both stay clean.
            // Interrupted: the final frame says so, and stays above the partial report.
            if interrupt.exitStatus != nil { line.finishInterrupted() } else { line.hide() }
            if let plot, let timeline,
                let problem = ProbePlotFile.write(timeline, report: report, startupDelay: plotStartupDelay.value, to: plot)
            {
                Diagnostics.error(problem)
                plotFailed = true
            }
            worst = max(worst, outcome)
            if let error = report.error {
                // On one terminal the text report's `error` line says it: once is enough.
                if json || !Diagnostics.reportSharesTerminal { Diagnostics.error(error) }
            } else if interrupt.exitStatus != nil {
                Diagnostics.warning("\(input): interrupted; the report covers what was read until then.")
            } else if outcome == .incomplete, json || !Diagnostics.reportSharesTerminal {
                // Why it stopped (the report's first warning: the read error, or where the media stops short
                // of what it declares, in the words check and simulate use), unless the text report on the
                // same terminal shows it.
                Diagnostics.warning(report.warnings.first ?? "\(input) was not read to the end; see the warnings in the report.")
            }
            if json {
                reports.append(report)
            } else {
                Diagnostics.standardOutput(ProbeText.render(report) + (input == inputs.last ? "" : "\n"))
            }
        }
        if json {
            let text = reports.count == 1 ? try JSONOutput.string(reports[0]) : try JSONOutput.string(reports)
            Diagnostics.standardOutput(text + "\n")
        }
        if let status = interrupt.exitStatus { throw ExitCode(status) }
        if worst != .complete { throw ExitCode(worst.rawValue) }
        if plotFailed { throw ExitCode(1) }
    }

    /// The live line while reading: what is loaded so far (holes visible), the read position in media
    /// time, and the read rate.
    static func snapshot(_ progress: ProbeReader.Progress, title: String) -> ProgressSnapshot {
        let offset = progress.start
        let loaded = progress.loaded.ranges.map { ($0.start - offset)..<max($0.start, $0.end) - offset }
        let position = (progress.loaded.end ?? offset) - offset
        // HLS: the segments as the segmented bar, the one being read highlighted.
        let segments = progress.segmentStarts.map { starts in
            SegmentProgress(starts: starts, current: max(0, (starts.lastIndex { $0 <= position } ?? 0)))
        }
        return ProgressSnapshot(
            state: .reading, title: title, currentTime: position, duration: progress.duration, loaded: loaded,
            readBytesPerSecond: progress.bytes.flatMap { progress.elapsed > 0 ? Double($0) / progress.elapsed : nil },
            segments: segments, showsPlayed: false)
    }
}
