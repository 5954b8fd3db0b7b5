#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The keys of `simulate --interactive`: the terminal on stdin in raw mode (no echo, no line buffering,
/// Ctrl-C still a signal), read without blocking longer than the caller allows, plus xterm mouse
/// reporting (SGR 1006 encoding) so a click on the bar seeks there, like the seed's slider.
package final class SimulationKeyboard: Sendable {
    /// What a key asks for.
    package enum Key: Equatable {
        /// Left arrow: back 10 s.
        case back
        /// Right arrow: forward 10 s.
        case forward
        /// Space: pause or resume.
        case togglePause
        /// `q`: stop the session.
        case quit
        /// A left-button press at this 0-based terminal column.
        case click(column: Int)
    }

    // Button-press reporting with the SGR encoding (no 223-column limit); turned off again in `restore`.
    private static let mouseOn = "\u{1B}[?1000h\u{1B}[?1006h"
    private static let mouseOff = "\u{1B}[?1000l\u{1B}[?1006l"

    private let saved: termios
    private let raw: termios

    /// Puts stdin in raw mode; `nil` when stdin is not a terminal.
    package init?() {
        guard isatty(STDIN_FILENO) == 1 else { return nil }
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return nil }
        saved = original
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        // Reads return at once with what is there: the caller waits in poll(2), not in read(2).
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        self.raw = raw
        enterRawMode()
    }

    /// Raw mode and mouse reporting again, after `restore()` (the process was continued after Ctrl-Z).
    package func enterRawMode() {
        var settings = raw
        tcsetattr(STDIN_FILENO, TCSANOW, &settings)
        Self.writeToTerminal(Self.mouseOn)
    }

    /// Gives the terminal back its settings; safe to repeat (Ctrl-C, SIGTERM and Ctrl-Z call it).
    package func restore() {
        Self.writeToTerminal(Self.mouseOff)
        var original = saved
        tcsetattr(STDIN_FILENO, TCSANOW, &original)
    }

    // The live line's terminal is stderr; stdout may be a file (`--json > report.json`).
    private static func writeToTerminal(_ text: String) {
        guard isatty(STDERR_FILENO) == 1 else { return }
        var bytes = Array(text.utf8)
        _ = write(STDERR_FILENO, &bytes, bytes.count)
    }

    /// The keys pressed within `milliseconds`, in order (empty when none).
    package func keys(waitingAtMost milliseconds: Int32) -> [Key] {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(STDIN_FILENO, &buffer, buffer.count)
        guard count > 0 else { return [] }
        return Self.parse(Array(buffer[..<count]))
    }

    /// Decodes raw terminal bytes: arrows (`ESC [ C`/`ESC [ D`, also `ESC O C`/`ESC O D`), space, `q`,
    /// and left-button presses reported as `ESC [ < 0 ; column ; row M` (1-based). Other keys, releases,
    /// other buttons and other escape sequences are skipped.
    static func parse(_ bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x1B, index + 2 < bytes.count, bytes[index + 1] == 0x5B || bytes[index + 1] == 0x4F {
                // Skip to the final byte of the sequence (0x40...0x7E).
                var end = index + 2
                while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
                if end == index + 2 {
                    if bytes[end] == 0x43 { keys.append(.forward) }
                    if bytes[end] == 0x44 { keys.append(.back) }
                } else if bytes[index + 2] == 0x3C, end < bytes.count, bytes[end] == 0x4D {
                    let fields = String(decoding: bytes[(index + 3)..<end], as: UTF8.self).split(separator: ";")
                    if fields.count == 3, fields[0] == "0", let column = Int(fields[1]), column >= 1 {
                        keys.append(.click(column: column - 1))
                    }
                }
                index = end + 1
                continue
            }
            switch byte {
            case 0x20: keys.append(.togglePause)
            case 0x71, 0x51: keys.append(.quit)
            default: break
            }
            index += 1
        }
        return keys
    }
}
