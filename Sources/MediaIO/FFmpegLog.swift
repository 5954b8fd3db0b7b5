internal import CFFmpeg
internal import CFFmpegShims
public import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Routes FFmpeg's own log (`av_log`) through swift-log, so it never reaches the terminal directly.
/// Setting `av_log_set_level(AV_LOG_ERROR)` alone is not enough: the default callback still prints
/// some lines, so bufprobe replaces the callback itself.
public enum FFmpegLog {
    private struct State: ~Copyable {
        var logger: Logger?
        /// Error lines per thread: libavformat logs on the thread that called it, so inputs read on
        /// different threads (check --parallel, tests running in parallel) never see each other's lines.
        var recent: [UInt: [String]] = [:]
        /// Pieces of lines not finished yet.
        var assembler = FFmpegLogAssembler()
    }

    private static let state = Mutex(State())
    private static let recentLimit = 16

    /// Installs the callback. FFmpeg lines go to `logger` at the matching swift-log level (errors as
    /// `.error`, warnings as `.warning`, info as `.info`, verbose and debug as `.debug`/`.trace`);
    /// `verbose` decides how much FFmpeg formats at all. Errors are also kept for `recentErrors`.
    public static func install(logger: Logger, verbose: Bool) {
        state.withLock { $0.logger = logger }
        cffmpeg_install_log_sink(sink, verbose ? AV_LOG_DEBUG : AV_LOG_WARNING)
    }

    /// The last error-level lines FFmpeg logged on the calling thread (newest last), for error messages
    /// that need the detail FFmpeg only logs (an HLS segment's HTTP status, for instance).
    public static func recentErrors() -> [String] { state.withLock { $0.recent[currentThread] ?? [] } }

    /// Forgets the calling thread's kept error lines (before opening a new input).
    public static func clearRecentErrors() { state.withLock { _ = $0.recent.removeValue(forKey: currentThread) } }

    /// The calling thread's identity: FFmpeg logs on the thread that called it, so per-input log
    /// collectors (this file's recent errors, check's `FFmpegLogRouter`) key their lines by it.
    package static var currentThread: UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }

    private static let sink: @convention(c) (Int32, UnsafePointer<CChar>?) -> Void = { level, text in
        guard let text else { return }
        FFmpegLog.emit(level: level, text: String(cString: text))
    }

    private static func emit(level pieceLevel: Int32, text: String) {
        let thread = currentThread
        let finished: (logger: Logger?, level: Int32, line: String)? = state.withLock { state in
            guard let (level, line) = state.assembler.add(level: pieceLevel, text: text, thread: thread),
                line.contains(where: { !$0.isWhitespace })
            else { return nil }
            if level <= AV_LOG_ERROR {
                state.recent[thread, default: []].append(line)
                if let count = state.recent[thread]?.count, count > recentLimit {
                    state.recent[thread]?.removeFirst()
                }
            }
            return (state.logger, level, line)
        }
        guard let finished else { return }
        finished.logger?.log(level: swiftLogLevel(finished.level), "\(finished.line)", metadata: ["source": "ffmpeg"])
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
