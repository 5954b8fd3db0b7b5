#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes to file descriptor 2 with write(2), bypassing stdio buffering so frames appear at once and
/// in order with log lines.
public struct StandardErrorSink: TerminalSink {
    /// Creates the sink.
    public init() {}

    /// Writes all of `text`, retrying after EINTR and partial writes; other errors drop the rest
    /// (a closed stderr must not stop the work).
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            var offset = 0
            while offset < bytes.count {
                let written = Self.rawWrite(base + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }

    /// Records whether the cursor is hidden so the exit hook can show it again.
    public func cursorVisibilityChanged(hidden: Bool) {
        CursorRestore.setHidden(hidden)
    }

    private static func rawWrite(_ pointer: UnsafePointer<UInt8>, _ count: Int) -> Int {
        #if canImport(Darwin)
        Darwin.write(2, pointer, count)
        #elseif canImport(Musl)
        Musl.write(2, pointer, count)
        #else
        Glibc.write(2, pointer, count)
        #endif
    }
}
