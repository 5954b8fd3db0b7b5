/// The live line's sink on file descriptor 2, through `StandardStreams.writeError` (write(2), no stdio
/// buffer, so frames appear at once and in order with log lines; a failing stderr drops the frame).
public struct StandardErrorSink: TerminalSink {
    /// Creates the sink.
    public init() {}

    /// Writes all of `text` in one write(2) where the kernel takes it whole.
    public func write(_ text: String) {
        StandardStreams.writeError(text)
    }

    /// Records whether the cursor is hidden so the exit hook can show it again.
    public func cursorVisibilityChanged(hidden: Bool) {
        CursorRestore.setHidden(hidden)
    }
}
