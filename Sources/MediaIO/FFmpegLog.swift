internal import CFFmpeg
internal import CFFmpegShims
public import Logging
import Synchronization

/// Routes FFmpeg's own log (`av_log`) through swift-log, so it never reaches the terminal directly.
/// Setting `av_log_set_level(AV_LOG_ERROR)` alone is not enough: the default callback still prints
/// some lines, so bufprobe replaces the callback itself.
public enum FFmpegLog {
    private struct State: ~Copyable {
        var logger: Logger?
        var recent: [String] = []
    }

    private static let state = Mutex(State())
    private static let recentLimit = 16

    /// Installs the callback. FFmpeg lines go to `logger` at the matching swift-log level (errors as
    /// `.error`, warnings as `.warning`, info as `.info`, verbose and debug as `.debug`/`.trace`);
    /// `verbose` decides how much FFmpeg formats at all. Errors are also kept for `recentErrors`.
    public static func install(logger: Logger, verbose: Bool) {
        state.withLock { $0.logger = logger }
        av_log_set_level(verbose ? AV_LOG_DEBUG : AV_LOG_WARNING)
        cffmpeg_install_log_sink(sink)
    }

    /// The last error-level lines FFmpeg logged (newest last), for error messages that need the detail
    /// FFmpeg only logs (an HLS segment's HTTP status, for instance).
    public static func recentErrors() -> [String] { state.withLock { $0.recent } }

    /// Forgets the kept error lines (before opening a new input).
    public static func clearRecentErrors() { state.withLock { $0.recent.removeAll() } }

    private static let sink: @convention(c) (Int32, UnsafePointer<CChar>?) -> Void = { level, text in
        guard let text else { return }
        FFmpegLog.emit(level: level, text: String(cString: text))
    }

    private static func emit(level: Int32, text: String) {
        var line = text
        while line.last == "\n" || line.last == "\r" { line.removeLast() }
        guard line.contains(where: { !$0.isWhitespace }) else { return }
        let logger: Logger? = state.withLock { state in
            if level <= AV_LOG_ERROR {
                state.recent.append(line)
                if state.recent.count > recentLimit { state.recent.removeFirst() }
            }
            return state.logger
        }
        logger?.log(level: swiftLogLevel(level), "\(line)", metadata: ["source": "ffmpeg"])
    }

    private static func swiftLogLevel(_ level: Int32) -> Logger.Level {
        switch level {
        case ...AV_LOG_ERROR: .error
        case ...AV_LOG_WARNING: .warning
        case ...AV_LOG_INFO: .info
        case ...AV_LOG_VERBOSE: .debug
        default: .trace
        }
    }
}
