// The library face of `probe`: a Swift program calls this instead of running the binary. Each call runs the
// same reader and report the command does, so the typed figures and the `json` document are the command's
// own; nothing here restates a rule.
import MediaIO
import BufprobeOutput
import InputReading

/// Probing a media file from Swift: what `bufprobe probe` does for one input.
///
/// ```swift
/// let summary = try await MediaProbe.probe("clip.mp4")
/// print(summary.format?.name ?? "?", summary.complete, summary.gaps.count)
/// ```
public enum MediaProbe {
    /// Reads every packet of `path` (a local path or a URL libavformat opens) and reports what is in it,
    /// as `bufprobe probe` with its default options (10 s `--timeout`, no `--latency`, `user_agent`
    /// bufprobe's for HTTP).
    ///
    /// The read runs on a thread of its own, not on Swift's cooperative pool. Cancelling the calling task
    /// stops the read: the summary then covers what was read, with `complete` false.
    ///
    /// The first call installs bufprobe's FFmpeg log sink for the process (FFmpeg's lines stop going to
    /// stderr; bufprobe keeps the error lines its sentences need).
    ///
    /// - Throws: `ProbeError` when the input cannot be opened or is not media (the command's exit code 2);
    ///   an input that opens but stops early (truncated, damaged) is a summary with `complete` false.
    public static func probe(_ path: String) async throws(ProbeError) -> ProbeSummary {
        LibrarySetup.once()
        let parent = Interrupter(timeout: nil)
        let (report, outcome) = await withTaskCancellationHandler {
            await BlockingThread.run(name: "bufprobe probe") { read(path, parent: parent) }
        } onCancel: {
            parent.cancel()
        }
        if outcome == .unreadable {
            throw ProbeError(description: report.error ?? "\(path) could not be read.")
        }
        // The command writes this document with `--json`; a report that cannot be encoded cannot happen
        // for the values a read produces, and would still leave the typed figures.
        let json = (try? JSONOutput.string(report)) ?? ""
        return ProbeSummary(report, json: json + "\n")
    }

    /// The command's reader setup for one input (Probe.run), without the live line and the plot.
    private static func read(_ path: String, parent: Interrupter) -> (ProbeReport, ProbeOutcome) {
        let timeout = 10.0
        var reader = ProbeReader(source: path)
        let scheme = path.prefix { $0 != ":" }.lowercased()
        if scheme.hasSuffix("http") || scheme.hasSuffix("https") {
            reader.options["user_agent"] = BufprobeVersion.userAgent
        }
        reader.interrupter = Interrupter(timeout: .bounded(seconds: timeout), parent: parent, input: path)
        reader.timeout = timeout
        reader.wantsProgress = { false }
        reader.diagnostics.latency = 0
        reader.diagnostics.extraStartupDelay = 2
        return reader.read()
    }
}

/// Why `MediaProbe.probe` could not read an input at all.
public struct ProbeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// bufprobe's sentence, the one `bufprobe probe` prints after `error: `.
    public var description: String
}
