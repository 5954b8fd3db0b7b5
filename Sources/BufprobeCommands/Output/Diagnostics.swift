import Foundation
package import Logging

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

    /// Writes `text` to stderr as is.
    package static func standardError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// The logger for a command: silent below `.error` unless `verbose`; FFmpeg's log goes through it.
    package static func logger(verbose: Bool) -> Logger {
        var logger = Logger(label: "bufprobe") { label in StreamLogHandler.standardError(label: label) }
        logger.logLevel = verbose ? .trace : .critical
        return logger
    }
}
