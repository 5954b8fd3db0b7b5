#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal's width as the kernel reports it.
public enum TerminalSize {
    /// Columns of the terminal on `descriptor` (TIOCGWINSZ), or nil when it is not a terminal or reports 0.
    public static func columns(of descriptor: Int32 = 2) -> Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Columns of stderr, else `COLUMNS`, else 80.
    public static func standardErrorColumns() -> Int {
        if let columns = columns(of: 2) { return columns }
        if let text = getenv("COLUMNS"), let value = Int(String(cString: text)), value > 0 { return value }
        return 80
    }
}
