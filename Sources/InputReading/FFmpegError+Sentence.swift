package import MediaIO

extension FFmpegError {
    /// One sentence for the user that names `input`, says what went wrong and, where there is one,
    /// what to do. FFmpeg's own text is kept in parentheses for searching, except where the
    /// sentence already says all of it (an HTTP status). `unresolvedHost` is the host
    /// FFmpeg's log said it could not resolve (`FFmpegEvent.unresolvedHost`), which the error code hides.
    package func sentence(for input: String, opening: Bool = true, unresolvedHost: String? = nil) -> String {
        let what = opening ? "could not be opened" : "could not be read to the end"
        if let host = unresolvedHost {
            return "\(input) \(what): could not resolve host \(host) (check the name and the DNS settings)."
        }
        if isNotFound { return "\(input): no such file." }
        if isInvalidData {
            return opening
                ? "\(input) is not a media file FFmpeg can read (\(message))."
                : "\(input) is damaged: FFmpeg stopped reading it (\(message))."
        }
        if let answer = httpAnswer {
            return "\(input) \(what): the server answered \(answer)."
        }
        if isConnectionRefused {
            return "\(input) \(what): the connection was refused (is the server running and the port right?)."
        }
        if isProtocolNotFound {
            return "\(input) \(what): FFmpeg does not know this URL scheme (\(message))."
        }
        return "\(input) \(what) (\(operation): \(message))."
    }
}
