public import Logging
import Synchronization

/// Collects every line a `Logger` made with `logger` logs, with its level, from any thread (FFmpeg logs on
/// the thread that reads).
public final class LogLines: Sendable {
    private let lines = Mutex<[(level: Logger.Level, message: String)]>([])

    /// An empty collection.
    public init() {}

    /// A logger whose lines land here (every level).
    public var logger: Logger { Logger(label: "test") { _ in Handler(collection: self) } }

    /// The lines so far, oldest first.
    public var all: [(level: Logger.Level, message: String)] { lines.withLock { $0 } }

    /// The messages so far, oldest first.
    public var messages: [String] { all.map(\.message) }

    private struct Handler: LogHandler {
        let collection: LogLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) { collection.lines.withLock { $0.append((event.level, "\(event.message)")) } }
    }
}
