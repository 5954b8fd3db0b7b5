#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization

/// Ctrl-C for every command: SIGINT is ignored as a signal and delivered through a Dispatch source,
/// then, in order: the command's `onInterrupt` runs (it cancels its work; it must not wait for it),
/// the live line draws its final frame saying `Interrupted` and shows the cursor, and the process
/// exits with status 130.
public final class InterruptHandler: Sendable {
    /// The exit status after Ctrl-C (128 + SIGINT).
    public static let exitCode: Int32 = 130

    private let line: LiveLine?
    private let onInterrupt: @Sendable () -> Void
    private let exit: @Sendable (Int32) -> Void
    private let source = Mutex<DispatchSignalBox?>(nil)

    /// A handler that is not installed; `handleInterrupt()` runs its steps with `exit` injected (tests).
    public init(line: LiveLine?, onInterrupt: @escaping @Sendable () -> Void, exit: @escaping @Sendable (Int32) -> Void) {
        self.line = line
        self.onInterrupt = onInterrupt
        self.exit = exit
    }

    /// Installs the handler for the process: `signal(SIGINT, SIG_IGN)` and a Dispatch signal source.
    /// The handler stays installed (even if the result is dropped) until `uninstall()`, which gives
    /// SIGINT back its default action. `onInterrupt` must return promptly: it runs before the final
    /// frame and the exit.
    @discardableResult
    public static func install(
        line: LiveLine? = LiveLine.current, onInterrupt: @escaping @Sendable () -> Void = {}
    ) -> InterruptHandler {
        let handler = InterruptHandler(line: line, onInterrupt: onInterrupt, exit: { status in
            #if canImport(Darwin)
            Darwin.exit(status)
            #elseif canImport(Musl)
            Musl.exit(status)
            #else
            Glibc.exit(status)
            #endif
        })
        handler.source.withLock { box in
            signal(SIGINT, SIG_IGN)
            let signalSource = DispatchSource.makeSignalSource(signal: SIGINT, queue: DispatchQueue(label: "bufprobe.interrupt"))
            // A strong reference on purpose: a dropped handler must not leave SIGINT ignored.
            signalSource.setEventHandler { handler.handleInterrupt() }
            signalSource.resume()
            box = DispatchSignalBox(source: signalSource)
        }
        return handler
    }

    /// The Ctrl-C steps: cancel the work, draw the `Interrupted` final frame, exit 130.
    public func handleInterrupt() {
        onInterrupt()
        line?.finishInterrupted()
        exit(Self.exitCode)
    }

    /// Stops handling SIGINT and restores its default action (terminate).
    public func uninstall() {
        source.withLock { box in
            guard let current = box else { return }
            current.source.cancel()
            box = nil
            signal(SIGINT, SIG_DFL)
        }
    }
}

// A Dispatch source is thread-safe but not marked Sendable; it is only touched under the lock.
private struct DispatchSignalBox: @unchecked Sendable {
    let source: any DispatchSourceSignal
}
