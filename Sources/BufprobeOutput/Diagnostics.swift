import Foundation
package import Logging
import ProgressLine

/// Where bufprobe's words go: results to stdout, `error:`/`warning:` sentences and logs to stderr,
/// each through its one writer (`StandardStreams`), with every control character from outside made
/// visible on the way (`TerminalText`), so a server or a file's metadata can never drive the terminal.
package enum Diagnostics {
    /// Writes `text` (a text report or a JSON document) to stdout, control characters other than
    /// newlines escaped; a failed write ends the process with one sentence and exit status 74.
    package static func standardOutput(_ text: String) {
        Termination.writeOutput(TerminalText.escaped(text, keepingNewlines: true))
    }

    /// Writes `error: <sentence>` to stderr.
    package static func error(_ sentence: String) { standardError("error: \(TerminalText.escaped(sentence))\n") }

    /// Writes `warning: <sentence>` to stderr.
    package static func warning(_ sentence: String) { standardError("warning: \(TerminalText.escaped(sentence))\n") }

    /// Whether stdout and stderr are the same terminal: a person reads the text report and the stderr
    /// sentences on one screen, so a sentence the report already shows (check's fail reason, the media's
    /// shortfall) is not written to stderr as well. Redirect either stream and both are written.
    package static var reportSharesTerminal: Bool {
        guard isatty(STDOUT_FILENO) == 1, isatty(STDERR_FILENO) == 1 else { return false }
        var out = stat()
        var err = stat()
        guard fstat(STDOUT_FILENO, &out) == 0, fstat(STDERR_FILENO, &err) == 0 else { return false }
        return out.st_rdev == err.st_rdev
    }

    /// Writes `text` to stderr (control characters other than newlines escaped): above the live line
    /// while one is drawn, so it never tears it.
    package static func standardError(_ text: String) {
        if let line = LiveLine.current, !line.isFinished {
            line.printAbove(text)
        } else {
            StandardStreams.writeError(TerminalText.escaped(text, keepingNewlines: true))
        }
    }

    /// The logger for a command, printing above the live line: silent unless `verbose` (FFmpeg's
    /// log goes through it; its error lines reach the user as report warnings instead).
    package static func logger(verbose: Bool) -> Logger {
        var logger = Logger(label: "bufprobe") { label in LiveLineLogHandler(label: label) }
        logger.logLevel = verbose ? .trace : .critical
        return logger
    }
}
