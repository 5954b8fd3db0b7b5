#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

// Process-wide because the terminal is: whoever hid the cursor, exit must show it again.
private let cursorHidden = Atomic<Bool>(false)
private let exitHookInstalled = Atomic<Bool>(false)

/// Shows the cursor again at process exit if the live line left it hidden (an early `exit`, an
/// uncaught error path). Uses only an atomic and write(2), so it is safe in an atexit handler.
enum CursorRestore {
    static func setHidden(_ hidden: Bool) {
        cursorHidden.store(hidden, ordering: .sequentiallyConsistent)
        if hidden, exitHookInstalled.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged {
            atexit { CursorRestore.restoreNow() }
        }
    }

    /// If a live line still hides the cursor (it was shown and never finished), moves below its
    /// frame and shows the cursor (`\n ESC[?25h`); does nothing otherwise.
    static func restoreNow() {
        guard cursorHidden.exchange(false, ordering: .sequentiallyConsistent) else { return }
        // The frame stays as the last state; the newline keeps the shell prompt off it.
        let show: [UInt8] = Array("\n\u{1B}[?25h".utf8)
        _ = show.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count) }
    }
}
