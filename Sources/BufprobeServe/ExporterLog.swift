import Foundation
import ProgressLine

/// `serve`'s log on stderr: one line per request and a few lines about the server itself. Targets and
/// sentences come from requests, so every one is escaped (`TerminalText`): a request can never put a
/// control character on the operator's terminal or forge a line.
package enum ExporterLog {
    /// What a request led to, besides its status.
    package struct Outcome: Sendable {
        /// The target, when the request named a valid one.
        package var target: String?
        /// The check's verdict, when one ran.
        package var verdict: String?
        /// The refusal's or the failed check's sentence.
        package var reason: String?

        /// Nothing yet.
        package init() {}
    }

    /// One request's line: `2026-11-23T21:00:00Z GET /probe 200 1.52s verdict=pass target=http://...`.
    package static func request(method: String, path: String, status: Int, outcome: Outcome, seconds: Double) {
        var line = "\(timestamp()) \(method) \(TerminalText.escaped(String(path.prefix(200)))) \(status) \(String(format: "%.2f", seconds))s"
        if let verdict = outcome.verdict { line += " verdict=\(verdict)" }
        if let target = outcome.target { line += " target=\(TerminalText.escaped(String(target.prefix(1000))))" }
        if let reason = outcome.reason { line += " reason=\(TerminalText.escaped(String(reason.prefix(1000))))" }
        write(line)
    }

    /// A line about the server (listening, stopping).
    package static func note(_ text: String) { write("\(timestamp()) \(TerminalText.escaped(text))") }

    private static func write(_ line: String) { StandardStreams.writeError(line + "\n") }

    private static func timestamp() -> String { Date().formatted(.iso8601) }
}
