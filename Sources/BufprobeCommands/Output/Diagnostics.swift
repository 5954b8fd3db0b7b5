import Foundation
package import Logging
import ProgressLine

/// Where bufprobe's words go: results to stdout, `error:`/`warning:` sentences and logs to stderr.
package enum Diagnostics {
    /// Writes `text` to stdout as is.
    package static func standardOutput(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes `error: <sentence>` to stderr.
    package static func error(_ sentence: String) { standardError("error: \(sentence)\n") }

    /// Writes `warning: <sentence>` to stderr.
    package static func warning(_ sentence: String) { standardError("warning: \(sentence)\n") }

    /// Writes `text` to stderr: above the live line while one is drawn, so it never tears it.
    package static func standardError(_ text: String) {
        if let line = LiveLine.current, !line.isFinished {
            line.printAbove(text)
        } else {
            FileHandle.standardError.write(Data(text.utf8))
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
