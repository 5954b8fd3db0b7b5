import Synchronization

/// A sink that keeps everything written, for tests of the live line and of commands.
public final class MemoryTerminalSink: TerminalSink {
    private let storage = Mutex<(writes: [String], cursorHidden: Bool)>(([], false))

    /// Creates an empty sink.
    public init() {}

    /// Records `text` as one write.
    public func write(_ text: String) {
        storage.withLock { $0.writes.append(text) }
    }

    /// Records the cursor state the line reported.
    public func cursorVisibilityChanged(hidden: Bool) {
        storage.withLock { $0.cursorHidden = hidden }
    }

    /// Every write so far, in order.
    public var writes: [String] { storage.withLock { $0.writes } }

    /// All writes joined.
    public var output: String { writes.joined() }

    /// Whether the line last reported the cursor hidden.
    public var cursorHidden: Bool { storage.withLock { $0.cursorHidden } }

    /// Forgets what was written so far.
    public func clear() {
        storage.withLock { $0.writes.removeAll() }
    }
}
