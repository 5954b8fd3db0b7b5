import Synchronization

/// What FFmpeg logged while one check ran, reduced to the facts an error sentence needs: the URLs it
/// opened, the HTTP errors it met (with the URL they belong to), the HLS segments it skipped, and a body
/// that ended before its `Content-Length`. FFmpeg tells these only in its log: an HLS segment that answers
/// 404 is skipped with a warning and the stream goes on (or ends) as if nothing happened.
package final class FFmpegLines: Sendable {
    /// An HTTP error answer.
    package struct HTTPError: Sendable, Hashable {
        /// The URL FFmpeg was opening when the answer came, when it said.
        package var url: String?
        /// The status code.
        package var status: Int
        /// The status text (`Not Found`).
        package var text: String
    }

    /// An HLS segment FFmpeg could not load and skipped.
    package struct FailedSegment: Sendable, Hashable {
        /// The segment's sequence number.
        package var sequence: Int
        /// The playlist (variant) index.
        package var playlist: Int
        /// The segment URL, when FFmpeg logged it.
        package var url: String?
        /// The HTTP error that made it fail, when there was one.
        package var error: HTTPError?
    }

    /// A body that ended before its declared length.
    package struct PrematureEnd: Sendable, Hashable {
        /// Bytes received.
        package var received: Int64
        /// Bytes the server declared.
        package var expected: Int64
    }

    private struct State {
        var lastOpened: String?
        var httpErrors: [HTTPError] = []
        var failedSegments: [FailedSegment] = []
        var prematureEnd: PrematureEnd?
        var unresolvedHost: String?
        var problems: [String] = []
    }

    private static let keptProblems = 16
    private let state = Mutex(State())

    /// Creates an empty collector.
    package init() {}

    /// Every HTTP error answer seen, oldest first.
    package var httpErrors: [HTTPError] { state.withLock { $0.httpErrors } }
    /// Every HLS segment skipped, oldest first.
    package var failedSegments: [FailedSegment] { state.withLock { $0.failedSegments } }
    /// The first body that ended early.
    package var prematureEnd: PrematureEnd? { state.withLock { $0.prematureEnd } }
    /// The first host name FFmpeg could not resolve.
    package var unresolvedHost: String? { state.withLock { $0.unresolvedHost } }
    /// The last warning and error lines (addresses removed), for `--json` warnings.
    package var problems: [String] { state.withLock { $0.problems } }

    /// Takes one FFmpeg line (with its `[name @ 0x...]` prefix, as the log callback formats it).
    package func record(_ line: String, isProblem: Bool) {
        let text = Self.withoutAddresses(line)
        let message = Self.message(text)
        // Most lines are none of these: a regex literal is parsed each time it is evaluated, so the
        // literal prefixes the patterns begin with decide first whether one is tried at all.
        guard isProblem || Self.notedPrefixes.contains(where: { message.hasPrefix($0) }) else { return }
        state.withLock { state in
            if isProblem {
                state.problems.append(text)
                if state.problems.count > Self.keptProblems { state.problems.removeFirst() }
            }
            if state.unresolvedHost == nil, let host = Self.unresolvedHost(inMessage: message) {
                state.unresolvedHost = host
            }
            if let match = message.firstMatch(of: /^Opening '(.+)' for reading$/) {
                state.lastOpened = String(match.1)
            } else if let match = message.firstMatch(of: /^HTTP error (\d{3}) ?(.*)$/), let status = Int(match.1) {
                state.httpErrors.append(HTTPError(url: state.lastOpened, status: status, text: String(match.2)))
            } else if let match = message.firstMatch(of: /^Failed to open segment (\d+) of playlist (\d+)/),
                let sequence = Int(match.1), let playlist = Int(match.2)
            {
                let error = state.httpErrors.last
                let url = error?.url ?? state.lastOpened
                let segment = FailedSegment(sequence: sequence, playlist: playlist, url: url, error: error)
                // FFmpeg retries a failed keep-alive request once and logs the failure twice.
                if state.failedSegments.last.map({ $0.sequence != sequence || $0.playlist != playlist }) ?? true {
                    state.failedSegments.append(segment)
                }
            } else if let match = message.firstMatch(of: /^Stream ends prematurely at (\d+), should be (\d+)/),
                state.prematureEnd == nil, let received = Int64(match.1), let expected = Int64(match.2)
            {
                state.prematureEnd = PrematureEnd(received: received, expected: expected)
            }
        }
    }

    /// The host FFmpeg's resolver failed on in `lines` (its `[tcp] Failed to resolve hostname NAME: ...`),
    /// the first one; FFmpeg itself only returns "Input/output error".
    package static func unresolvedHost(in lines: [String]) -> String? {
        lines.lazy.compactMap { unresolvedHost(inMessage: message($0)) }.first
    }

    /// The literal starts of the lines `record` reads facts from (its patterns, and `unresolvedHost`'s).
    private static let notedPrefixes = [
        "Opening '", "HTTP error ", "Failed to open segment ", "Stream ends prematurely at ", "Failed to resolve hostname ",
    ]

    private static func unresolvedHost(inMessage message: String) -> String? {
        guard message.hasPrefix("Failed to resolve hostname "), let match = message.firstMatch(of: /^Failed to resolve hostname (\S+?):/) else { return nil }
        return String(match.1)
    }

    // "[http] HTTP error 404 Not Found" -> "HTTP error 404 Not Found".
    private static func message(_ line: String) -> String {
        guard line.hasPrefix("["), let close = line.firstIndex(of: "]") else { return line }
        return String(line[line.index(after: close)...].drop(while: { $0 == " " }))
    }

    /// "[mov,mp4 @ 0x55d0c2a3b980] partial file" -> "[mov,mp4] partial file": addresses change every run.
    package static func withoutAddresses(_ line: String) -> String {
        var result = ""
        var rest = Substring(line)
        while let at = rest.range(of: " @ 0x") {
            result += rest[..<at.lowerBound]
            rest = rest[at.upperBound...].drop(while: \.isHexDigit)
        }
        return result + rest
    }
}
