package import MediaIO

/// What FFmpeg logged while one check ran, reduced to the facts an error sentence needs: the URLs it
/// opened, the HTTP errors it met (with the URL they belong to), the HLS segments it skipped, and a body
/// that ended before its `Content-Length`. It reads FFmpeg's events (`FFmpegEvent`, parsed once by
/// MediaIO's `FFmpegLog`), never FFmpeg's text: the check's session observes its reading thread's lines
/// and hands each one to `CheckMachine`, which keeps this value and hands the line to `record`.
package struct FFmpegLines: Sendable {
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

    private struct State: Sendable {
        var lastOpened: String?
        var httpErrors: [HTTPError] = []
        var failedSegments: [FailedSegment] = []
        var prematureEnd: PrematureEnd?
        var unresolvedHost: String?
        var problems: [String] = []
    }

    private static let keptProblems = 16
    private var state = State()

    /// Creates an empty collector.
    package init() {}

    /// Every HTTP error answer seen, oldest first.
    package var httpErrors: [HTTPError] { state.httpErrors }
    /// Every HLS segment skipped, oldest first.
    package var failedSegments: [FailedSegment] { state.failedSegments }
    /// The first body that ended early.
    package var prematureEnd: PrematureEnd? { state.prematureEnd }
    /// The first host name FFmpeg could not resolve.
    package var unresolvedHost: String? { state.unresolvedHost }
    /// The last warning and error lines (addresses removed), for `--json` warnings.
    package var problems: [String] { state.problems }

    /// Takes one line FFmpeg logged during the check.
    package mutating func record(_ line: FFmpegLogLine) {
        guard line.isProblem || line.event != nil else { return }
        if line.isProblem {
            state.problems.append(line.text)
            if state.problems.count > Self.keptProblems { state.problems.removeFirst() }
        }
        switch line.event {
        case .opening(let url):
            state.lastOpened = url
        case .httpError(let status, let text):
            state.httpErrors.append(HTTPError(url: state.lastOpened, status: status, text: text))
        case .segmentFailed(let sequence, let playlist):
            let error = state.httpErrors.last
            let url = error?.url ?? state.lastOpened
            let segment = FailedSegment(sequence: sequence, playlist: playlist, url: url, error: error)
            // FFmpeg retries a failed keep-alive request once and logs the failure twice.
            if state.failedSegments.last.map({ $0.sequence != sequence || $0.playlist != playlist }) ?? true {
                state.failedSegments.append(segment)
            }
        case .prematureEnd(let received, let expected):
            if state.prematureEnd == nil { state.prematureEnd = PrematureEnd(received: received, expected: expected) }
        case .unresolvedHost(let host):
            if state.unresolvedHost == nil { state.unresolvedHost = host }
        case .fileEndedPrematurely, nil:
            break
        }
    }
}
