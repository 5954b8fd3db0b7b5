/// Where the live line writes: standard error in the program, memory in tests.
public protocol TerminalSink: Sendable {
    /// Writes `text` as one piece (one write(2) for the real sink, so a frame is never interleaved).
    func write(_ text: String)
    /// Told when the line hides or shows the cursor, so the real sink can restore it at exit.
    func cursorVisibilityChanged(hidden: Bool)
}

extension TerminalSink {
    /// Sinks that do not touch a real terminal ignore cursor changes.
    public func cursorVisibilityChanged(hidden: Bool) {}
}
