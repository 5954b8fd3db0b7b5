package import Logging
import MediaIO
import Synchronization

/// The `LogHandler` `check` gives `FFmpegLog`: every FFmpeg line goes to the `FFmpegLines` of the check
/// running on the calling thread (libavformat logs on the thread that called it, and each check reads on
/// its own thread, so parallel checks do not mix their lines), then on to the command's own logger
/// (silent unless `--verbose`).
package struct FFmpegLogRouter: LogHandler {
    private static let collectors = Mutex<[UInt: FFmpegLines]>([:])

    /// The command's logger; FFmpeg lines are forwarded to it at their level.
    package let forward: Logger
    /// Always `.trace`: which FFmpeg lines exist at all is decided by FFmpeg's own level.
    package var logLevel: Logger.Level = .trace
    /// Unused metadata storage (the protocol requires it).
    package var metadata: Logger.Metadata = [:]

    /// A router forwarding to `forward`.
    package init(forward: Logger) { self.forward = forward }

    /// Unused metadata access (the protocol requires it).
    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Routes one line.
    package func log(event: LogEvent) {
        let line = event.message.description
        if let lines = Self.collectors.withLock({ $0[Self.currentThread] }) {
            lines.record(line, isProblem: event.level >= .warning)
        }
        forward.log(level: event.level, event.message, metadata: event.metadata)
    }

    /// Sends the lines FFmpeg logs on the calling thread to `lines` until `unregister()`.
    package static func register(_ lines: FFmpegLines) {
        collectors.withLock { $0[currentThread] = lines }
    }

    /// Stops collecting the calling thread's lines.
    package static func unregister() {
        _ = collectors.withLock { $0.removeValue(forKey: currentThread) }
    }

    private static var currentThread: UInt { FFmpegLog.currentThread }
}
