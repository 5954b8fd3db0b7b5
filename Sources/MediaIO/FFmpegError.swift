internal import CFFmpeg

/// A failed FFmpeg call: the negative `AVERROR` code, the operation that returned it and
/// `av_strerror`'s text for it.
public struct FFmpegError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The negative error code FFmpeg returned.
    public var code: Int32
    /// The FFmpeg function (or our step) that failed, such as `avformat_open_input`.
    public var operation: String
    /// FFmpeg's own description of `code`.
    public var message: String

    /// Creates an error for `code` returned by `operation`, looking up FFmpeg's text.
    public init(code: Int32, operation: String) {
        self.code = code
        self.operation = operation
        self.message = FFmpegError.text(for: code)
    }

    /// `operation: message (code)`.
    public var description: String { "\(operation): \(message) (\(code))" }

    /// Whether the code means "no such file", as opposed to a format or I/O problem.
    public var isNotFound: Bool { code == cffmpeg_averror(ENOENT) }

    /// Whether the network connection was refused (nothing listens on that port).
    public var isConnectionRefused: Bool { code == cffmpeg_averror(ECONNREFUSED) }

    /// Whether the code says the input is not media FFmpeg understands.
    public var isInvalidData: Bool { code == cffmpeg_averror_invaliddata() }

    /// Whether a connection or a resource timed out (`ETIMEDOUT`: FFmpeg's own network timeouts, and a
    /// resource the gate skipped for sending nothing in time).
    public var isTimedOut: Bool { code == cffmpeg_averror(ETIMEDOUT) }

    /// Whether no FFmpeg protocol handles the URL's scheme.
    public var isProtocolNotFound: Bool { code == cffmpeg_averror_protocol_not_found() }

    /// Whether the call was aborted by our interrupt callback (timeout or cancellation).
    public var isInterrupted: Bool { code == cffmpeg_averror_exit() }

    /// The HTTP status this error stands for, when FFmpeg mapped one.
    public var httpStatus: Int? {
        switch code {
        case cffmpeg_averror_http_bad_request(): 400
        case cffmpeg_averror_http_unauthorized(): 401
        case cffmpeg_averror_http_forbidden(): 403
        case cffmpeg_averror_http_not_found(): 404
        case cffmpeg_averror_http_other_4xx(): 400
        case cffmpeg_averror_http_server_error(): 500
        default: nil
        }
    }

    /// The HTTP answer this error stands for, as words that end a sentence ("HTTP 404 Not Found");
    /// `nil` when it is not an HTTP error. FFmpeg folds the other 4xx and every 5xx status into one code
    /// each, so those read "an HTTP 4xx error (not 400, 401, 403 or 404)" and "an HTTP 5xx error".
    public var httpAnswer: String? {
        switch code {
        case cffmpeg_averror_http_bad_request(): "HTTP 400 Bad Request"
        case cffmpeg_averror_http_unauthorized(): "HTTP 401 Unauthorized"
        case cffmpeg_averror_http_forbidden(): "HTTP 403 Forbidden"
        case cffmpeg_averror_http_not_found(): "HTTP 404 Not Found"
        case cffmpeg_averror_http_other_4xx(): "an HTTP 4xx error (not 400, 401, 403 or 404)"
        case cffmpeg_averror_http_server_error(): "an HTTP 5xx error"
        default: nil
        }
    }

    static func text(for code: Int32) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { buffer in
            cffmpeg_strerror(code, buffer.baseAddress, 256)
            return String(cString: buffer.baseAddress!)
        }
    }
}
