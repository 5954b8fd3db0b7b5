package import Logging
import MediaIO
import InputReading

/// The one way bufprobe runs a check, for `check` and `serve` alike: FFmpeg's log parsed by bufprobe's sink
/// (each check's session hands its own thread's events to its machine's `FFmpegLines`, which its failure
/// sentences need), every check on a thread of its own, and listed in
/// `running` while it runs, so that one signal can cancel them all. It writes nothing to the terminal:
/// what to show of a report is the caller's business.
package final class CheckRunner: Sendable {
    /// The checks in progress.
    package let running = RunningChecks()

    /// A runner whose FFmpeg lines go on to `logger` (silent unless it is verbose). It installs the
    /// process's FFmpeg log sink: make one per process.
    package init(logger: Logger) {
        // FFmpeg's informational lines are needed (the URL of each HLS segment it opens), so it formats
        // everything and each session keeps what a sentence needs; the user sees it only with --verbose.
        FFmpegLog.install(logger: logger, verbose: true)
    }

    /// Checks `source` with `settings` and returns its report.
    package func report(source: String, settings: CheckSettings) async -> CheckReport {
        await report(of: CheckSession(source: source, settings: settings))
    }

    /// Runs `session` to its report on a thread named `threadName`, listed in `running` meanwhile (the
    /// caller keeps the session to draw its progress); with `logger`, the FFmpeg lines of this check go to
    /// it instead of the runner's.
    package func report(of session: CheckSession, threadName: String = "bufprobe check", logger: Logger? = nil) async -> CheckReport {
        running.add(session)
        let report = await BlockingThread.run(name: threadName) {
            guard let logger else { return session.run() }
            return FFmpegLog.withLogger(logger) { session.run() }
        }
        running.remove(session)
        return report
    }
}
