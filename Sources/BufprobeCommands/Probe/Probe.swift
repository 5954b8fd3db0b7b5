public import ArgumentParser
import Foundation
import Logging
import MediaIO

/// `bufprobe probe FILE...`: reads every packet of each input and reports what is in it, its loaded
/// ranges and gaps, and what looks wrong.
public struct Probe: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        abstract: "Read every packet of media files and report streams, loaded ranges, gaps and problems.",
        discussion: """
            Inputs are local paths or any URL libavformat opens. Results go to stdout, progress and \
            diagnostics to stderr.

            Exit codes: 0 every input read to the end; 2 an input could not be opened or is not media; \
            3 reading started but stopped early (truncated or damaged; --json still holds what was read, \
            with "complete": false); 64 usage error; 130 interrupted. With several inputs the worst wins \
            (2 over 3 over 0).
            """)

    @Argument(help: ArgumentHelp("Media files or URLs to read.", valueName: "file"))
    var inputs: [String]

    @Flag(help: "Write JSON (one document, or an array for several inputs) instead of text.")
    var json = false

    @Option(
        name: [.customShort("o"), .customLong("option")],
        help: ArgumentHelp("A libavformat option for opening, as key=value (repeatable).", valueName: "key=value"))
    var options: [String] = []

    @Flag(name: .shortAndLong, help: "Show FFmpeg's own log and bufprobe's diagnostics on stderr.")
    var verbose = false

    public init() {}

    public func validate() throws {
        for option in options where !option.contains("=") {
            throw ValidationError("--option takes key=value, got '\(option)'.")
        }
    }

    public func run() async throws {
        let logger = Diagnostics.logger(verbose: verbose)
        FFmpegLog.install(logger: logger, verbose: verbose)
        let avOptions = Dictionary(
            options.map { option -> (String, String) in
                let parts = option.split(separator: "=", maxSplits: 1)
                return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
            }, uniquingKeysWith: { _, last in last })

        var reports: [ProbeReport] = []
        var worst = ProbeOutcome.complete
        for input in inputs {
            var reader = ProbeReader(source: input)
            reader.options = avOptions
            let (report, outcome) = reader.read()
            worst = max(worst, outcome)
            if let error = report.error {
                Diagnostics.error(error)
            } else if outcome == .incomplete {
                Diagnostics.warning("\(input) was not read to the end; see the warnings in the report.")
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
        if worst != .complete { throw ExitCode(worst.rawValue) }
    }
}
