public import ArgumentParser
import BufprobeOutput
import Foundation
import MediaIO
import PlaybackModel
import ProgressLine
import ValidateEngine

/// `bufprobe validate URL|FILE...`: reads an HLS stream's every playlist and segment (or a DASH MPD's every
/// segment) and reports every rule of the catalogue it breaks, grouped MUST FIX / SHOULD FIX, with the measured table per variant.
public struct Validate: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check an HLS stream or DASH MPD against RFC 8216, Apple's and MPEG-DASH's rules, measured from its media.",
        usage: "bufprobe validate [<options>] <input> ...",
        discussion: """
            Examples:
              bufprobe validate https://cdn.example.net/vod/master.m3u8
              bufprobe validate --json stream/master.m3u8 > findings.json
              bufprobe validate --junit validate.xml --ignore apple:9.9 master.m3u8
              bufprobe validate --html report.html https://cdn.example.net/vod/master.m3u8
              bufprobe validate --max-bytes 500M --max-time 2m vod/manifest.mpd

            Inputs: an HLS multivariant or media playlist (VOD) or a single-period DASH MPD, a local path \
            or an http(s) URL. Every media \
            playlist it names (variants, renditions, I-frame playlists), every representation, and every segment \
            is read, as fast as \
            the link allows, --concurrency requests at once, until --max-bytes or --max-time; a stream larger \
            than that is judged on the segments read, and the report says which were not. Each segment is \
            opened with FFmpeg: bit rates, keyframes, durations, codecs and picture size are measured from the \
            media, not taken from the playlist. A dynamic (live) MPD is judged on its XML alone; live playlists \
            are read once; I-frame playlists' frames are not validated yet (docs/validate.md).

            Every finding names its rule (rfc8216:4.3.3.1, apple:1.27, iso23009-1:5.3.5.2@bandwidth ...; \
            `bufprobe:read` for what could not \
            be read), its level as the source words it (must, should), the measured and declared figures, where \
            and how often. The rules, their tolerances and editions: docs/validate.md.

            Exit codes: 0 no must-fix finding; 1 must-fix findings; 2 an input could not be read or is neither \
            an HLS playlist nor a DASH MPD it reads (a static one of several periods is not); 64 usage error; 130 interrupted (Ctrl-C; the report of \
            what was read is written first). With several inputs the worst wins (2 over 1 over 0).
            """)

    @Argument(help: ArgumentHelp("HLS playlists or DASH MPDs (paths or http(s) URLs) to validate.", valueName: "input"), completion: .file())
    var inputs: [String]

    @Flag(help: "Write JSON (one document, or an array for several inputs) instead of text.")
    var json = false

    @Option(
        help: ArgumentHelp("Also write a JUnit XML report to FILE for CI: one test case per rule checked, a must-fix finding as a failure.", valueName: "file"),
        completion: .file())
    var junit: String?

    @Option(
        help: ArgumentHelp("Also write one self-contained HTML page to FILE: the findings, the measured table and every rule checked.", valueName: "file"),
        completion: .file())
    var html: String?

    @Option(
        help: ArgumentHelp(
            "Leave out the findings of a rule (its id as reported; repeatable, or several with commas: apple:9.9,rfc8216:4.3.1.2).",
            valueName: "rule"))
    var ignore: [String] = []

    /// Every rule `--ignore` names.
    private var ignoredRules: [String] { ignore.flatMap { $0.split(separator: ",").map(String.init) } }

    @Option(help: ArgumentHelp("Requests at once.", valueName: "count"))
    var concurrency = 4

    @Option(
        name: .customLong("max-bytes"),
        help: ArgumentHelp("Segment bytes read in all before the rest is left unread: 500M, 2G.", valueName: "size"))
    var maxBytes = "4G"

    @Option(
        name: .customLong("max-time"), parsing: .unconditional,
        help: ArgumentHelp("Time the reading may take before the rest is left unread (default 10m).", valueName: "duration"),
        transform: Seconds.argument)
    var maxTime = Seconds(600)

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Longest a request waits for data before it counts as unreadable (default 10s).", valueName: "duration"),
        transform: Seconds.argument)
    var timeout = Seconds(10)

    @Option(
        name: [.customShort("o"), .customLong("option")],
        help: ArgumentHelp("A protocol option for every request, as key=value (repeatable): headers, user_agent.", valueName: "key=value"))
    var options: [String] = []

    @Flag(
        name: .customLong("deny-private"),
        help: "Refuse every request to a loopback, private, link-local or cloud-metadata address (169.254.169.254), checked after name resolution: the input, every playlist and segment it names and every HTTP redirect; a refused one is a bufprobe:read finding (default: off).")
    var denyPrivate = false

    @Flag(name: .shortAndLong, help: "Show FFmpeg's own log on stderr.")
    var verbose = false

    /// Creates the command with its defaults (ArgumentParser fills in the options).
    public init() {}

    /// Rejects values the validation cannot use, with a sentence naming the option (exit 64).
    public func validate() throws {
        for rule in ignoredRules where ValidationCatalogue.rule(rule) == nil {
            throw ValidationError("--ignore: \(rule) is not a rule bufprobe checks (docs/validate.md lists them).")
        }
        guard (1...64).contains(concurrency) else { throw ValidationError("--concurrency must be 1 to 64, got \(concurrency).") }
        guard Self.bytes(maxBytes) != nil else { throw ValidationError("--max-bytes takes a size such as 500M or 2G, got '\(maxBytes)'.") }
        guard timeout.value > 0, maxTime.value > 0 else { throw ValidationError("--timeout and --max-time must be more than 0 seconds.") }
        for option in options where !option.contains("=") { throw ValidationError("--option takes key=value, got '\(option)'.") }
    }

    public func run() throws {
        FFmpegLog.install(logger: Diagnostics.logger(verbose: verbose), verbose: verbose)
        var settings = ValidationSettings()
        settings.timeout = timeout.value
        settings.concurrency = concurrency
        settings.maxBytes = Self.bytes(maxBytes) ?? settings.maxBytes
        settings.maxTime = maxTime.value
        settings.ignored = Set(ignoredRules)
        for option in options {
            let parts = option.split(separator: "=", maxSplits: 1)
            settings.options[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        if settings.options["user_agent"] == nil { settings.options["user_agent"] = BufprobeVersion.userAgent }
        let began = Date()
        var results: [(source: String, result: Result<ValidationReport, ValidationFailure>)] = []
        // Ctrl-C (or SIGTERM...) cancels every request at once; what was read is still judged and reported
        // (its not-read list says the run was interrupted), then the command exits 128 + the signal.
        let root = Interrupter(timeout: nil, policy: denyPrivate ? RequestPolicy(denyPrivate: true) : nil)
        let interrupt = InterruptHandler.install(line: nil, grace: .seconds(3)) { root.cancel() }
        defer { interrupt.uninstall() }
        for input in inputs where interrupt.exitStatus == nil {
            let validation = StreamValidation(source: input, settings: settings, root: root, installsLogSink: false)
            results.append((input, Result { () throws(ValidationFailure) in try validation.run() }))
            if interrupt.exitStatus != nil {
                Diagnostics.warning("\(input): interrupted; the report covers what was read until then.")
            }
        }
        var worst: Int32 = 0
        var documents: [ValidateJSON] = []
        for (source, result) in results {
            switch result {
            case .success(let report):
                if !report.mustFix.isEmpty { worst = max(worst, 1) }
                if json {
                    documents.append(ValidateJSON(report))
                } else {
                    Diagnostics.standardOutput(ValidateText.render(report) + (source == results.last?.source ? "" : "\n"))
                }
            case .failure(let failure):
                worst = 2
                Diagnostics.error(failure.description)
                if json { documents.append(ValidateJSON(source: source, failure: failure)) }
            }
        }
        if json {
            let text = documents.count == 1 ? try JSONOutput.string(documents[0]) : try JSONOutput.string(documents)
            Diagnostics.standardOutput(text + "\n")
        }
        if let junit, !Self.write(ValidateJUnit.render(results, time: Date().timeIntervalSince(began), timestamp: began), to: junit, what: "the JUnit report") {
            worst = max(worst, 2)
        }
        if let html, !Self.write(ValidateHTML.render(results, date: began), to: html, what: "the HTML page") { worst = max(worst, 2) }
        if let status = interrupt.exitStatus { throw ExitCode(status) }
        if worst != 0 { throw ExitCode(worst) }
    }

    /// Writes `document` to `path`; false, with a sentence on stderr, when it cannot.
    private static func write(_ document: String, to path: String, what: String) -> Bool {
        do {
            try document.write(toFile: path, atomically: true, encoding: .utf8)
            return true
        } catch {
            Diagnostics.error("\(what) could not be written to \(path) (check the path).")
            return false
        }
    }

    /// `500M`, `2G`, `1024K` or a plain number of bytes, above 0; `nil` for anything else.
    static func bytes(_ text: String) -> Int64? {
        let units: [Character: Int64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40]
        var digits = Substring(text.uppercased())
        if digits.hasSuffix("IB") || digits.hasSuffix("B") { digits = digits.dropLast(digits.hasSuffix("IB") ? 2 : 1) }
        var scale: Int64 = 1
        if let last = digits.last, let unit = units[last] {
            scale = unit
            digits = digits.dropLast()
        }
        guard let value = Double(digits), value > 0, value.isFinite else { return nil }
        let bytes = value * Double(scale)
        return bytes < 9e18 ? Int64(bytes) : nil
    }
}
