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
///
/// It is also the one place FFmpeg's text is read: each finished line a caller wants (its thread's
/// observer, the kept errors) is parsed once into an `FFmpegLogLine` with its `FFmpegEvent`, and callers
/// work with those values, never with the text.
public enum FFmpegLog {
    private struct State: ~Copyable {
        var logger: Logger?
        /// Error lines per thread: libavformat logs on the thread that called it, so inputs read on
        /// different threads (check --parallel, tests running in parallel) never see each other's lines.
        var recent: [UInt: [FFmpegLogLine]] = [:]
        /// The logger of the lines logged on a thread (`withLogger`), in place of `logger`: each library
        /// caller's check sends its FFmpeg lines to the logger it was given, whatever the others were given.
        var threadLoggers: [UInt: Logger] = [:]
        /// Who receives every parsed line logged on a thread (`observe`), per thread for the same reason.
        var observers: [UInt: @Sendable (FFmpegLogLine) -> Void] = [:]
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
    public static func recentErrors() -> [FFmpegLogLine] { state.withLock { $0.recent[currentThread] ?? [] } }

    /// Forgets the calling thread's kept error lines (before opening a new input).
    public static func clearRecentErrors() { state.withLock { _ = $0.recent.removeValue(forKey: currentThread) } }

    /// Sends every line FFmpeg logs on the calling thread, parsed, to `observer` (on that thread, before
    /// the logger sees it) until `stopObserving()` on the same thread: one input's lines, as each input is
    /// read on a thread of its own. Needs bufprobe's sink (`install`).
    package static func observe(_ observer: @escaping @Sendable (FFmpegLogLine) -> Void) {
        state.withLock { $0.observers[currentThread] = observer }
    }

    /// Runs `body` with the lines FFmpeg logs on the calling thread going to `logger` instead of the
    /// installed one (libavformat logs on the thread that called it, and each check reads on a thread of its
    /// own). Needs bufprobe's sink (`install`).
    package static func withLogger<Result>(_ logger: Logger, _ body: () -> Result) -> Result {
        let thread = currentThread
        let previous = state.withLock { $0.threadLoggers.updateValue(logger, forKey: thread) }
        defer { state.withLock { $0.threadLoggers[thread] = previous } }
        return body()
    }

    /// Stops sending the calling thread's lines to its observer.
    package static func stopObserving() {
        _ = state.withLock { $0.observers.removeValue(forKey: currentThread) }
    }

    /// The calling thread's identity: FFmpeg logs on the thread that called it, so per-input log
    /// collectors (the recent errors, the observers) key their lines by it.
    private static var currentThread: UInt {
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
        typealias Finished = (logger: Logger?, observer: (@Sendable (FFmpegLogLine) -> Void)?, level: Int32, line: String)
        let finished: Finished? = state.withLock { state in
            guard let (level, line) = state.assembler.add(level: pieceLevel, text: text, thread: thread),
                line.contains(where: { !$0.isWhitespace })
            else { return nil }
            return (state.threadLoggers[thread] ?? state.logger, state.observers[thread], level, line)
        }
        guard let finished else { return }
        let level = swiftLogLevel(finished.level)
        let isError = finished.level <= AV_LOG_ERROR
        // Parsed outside the lock (one lock for every thread), and only when someone reads the result.
        if finished.observer != nil || isError {
            let parsed = FFmpegLogLine(level: level, line: finished.line)
            if isError {
                state.withLock { state in
                    state.recent[thread, default: []].append(parsed)
                    if let count = state.recent[thread]?.count, count > recentLimit {
                        state.recent[thread]?.removeFirst()
                    }
                }
            }
            finished.observer?(parsed)
        }
        finished.logger?.log(level: level, "\(finished.line)", metadata: ["source": "ffmpeg"])
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
