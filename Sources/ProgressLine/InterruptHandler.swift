#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization

/// Ctrl-C, and the other signals that end a terminal program (SIGTERM, SIGHUP, SIGQUIT), for every
/// command. Each is ignored as a signal and delivered through a Dispatch source; the first one runs the
/// command's `onInterrupt` (it cancels the work; it must not wait for it), then either
/// - without a grace period: claims the exit (`Termination`), draws the live line's final frame saying
///   `Interrupted`, shows the cursor and exits 128 + the signal's number (130 for Ctrl-C); or
/// - with a grace period: leaves the ending to the command, which sees `exitStatus`, finishes its
///   line, writes what it has and exits with that status; if it has not exited when the grace period
///   ends (a call that does not return), the handler ends the process as above.
/// A second signal ends the process at once. If the command already claimed the exit (it is printing
/// its results), a signal changes nothing: one owner decides the exit status.
public final class InterruptHandler: Sendable {
    /// The exit status after Ctrl-C (128 + SIGINT).
    public static let exitCode: Int32 = 128 + SIGINT

    /// The signals handled: Ctrl-C, `kill`, a closed terminal, Ctrl-\.
    public static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    private let line: LiveLine?
    private let grace: Duration?
    private let onInterrupt: @Sendable () -> Void
    private let claim: @Sendable () -> Bool
    private let exit: @Sendable (Int32) -> Void
    private let received = Atomic<Int32>(0)
    private let sources = Mutex<[DispatchSignalBox]>([])

    /// A handler that is not installed; `handle(signal:)` runs its steps with `claim` and `exit`
    /// injected (tests).
    public init(
        line: LiveLine?, grace: Duration? = nil, onInterrupt: @escaping @Sendable () -> Void,
        claim: @escaping @Sendable () -> Bool = { true }, exit: @escaping @Sendable (Int32) -> Void
    ) {
        self.line = line
        self.grace = grace
        self.onInterrupt = onInterrupt
        self.claim = claim
        self.exit = exit
    }

    /// Installs the handler for the process: every signal of `signals` (all four by default; `serve`
    /// keeps SIGHUP for reloading) ignored as a signal and delivered through a Dispatch source. It stays installed (even if the result is dropped) until
    /// `uninstall()`. `onInterrupt` must return promptly.
    @discardableResult
    public static func install(
        line: LiveLine? = LiveLine.current, grace: Duration? = nil, signals: [Int32] = InterruptHandler.signals,
        onInterrupt: @escaping @Sendable () -> Void = {}
    ) -> InterruptHandler {
        let handler = InterruptHandler(
            line: line, grace: grace, onInterrupt: onInterrupt, claim: Termination.claim,
            exit: { status in Termination.exitNow(status) })
        // On Linux a source is registered (its signalfd made, libdispatch's own action set in place of
        // SIG_IGN) on Dispatch's manager thread some time after `resume()`; an ignored signal in that window
        // is discarded, so a Ctrl-C just as the live line first draws would be lost. `install` returns
        // only once every source is registered (or after a second, if Dispatch never says so).
        let registered = DispatchSemaphore(value: 0)
        handler.sources.withLock { boxes in
            let queue = DispatchQueue(label: "bufprobe.interrupt")
            for number in signals {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                // A strong reference on purpose: a dropped handler must not leave the signals ignored.
                source.setEventHandler { handler.handle(signal: number) }
                source.setRegistrationHandler { registered.signal() }
                source.resume()
                boxes.append(DispatchSignalBox(source: source))
            }
        }
        let deadline = DispatchTime.now() + .seconds(1)
        for _ in signals where registered.wait(timeout: deadline) == .timedOut { break }
        return handler
    }

    /// The first signal received, if any.
    public var receivedSignal: Int32? {
        let number = received.load(ordering: .sequentiallyConsistent)
        return number == 0 ? nil : number
    }

    /// The exit status the first signal asks for (128 + its number), if one was received.
    public var exitStatus: Int32? { receivedSignal.map { 128 + $0 } }

    /// The Ctrl-C steps (SIGINT).
    public func handleInterrupt() { handle(signal: SIGINT) }

    /// The steps for one signal: cancel the work, then end (at once, or after the grace period).
    public func handle(signal number: Int32) {
        let first = received.compareExchange(expected: 0, desired: number, ordering: .sequentiallyConsistent).exchanged
        if first {
            onInterrupt()
            if let grace {
                DispatchQueue.global().asyncAfter(deadline: .now() + Self.seconds(grace)) { [self] in end() }
                return
            }
        }
        end()
    }

    private func end() {
        // The command (or an earlier signal) is already ending the process with its own status.
        guard claim(), let status = exitStatus else { return }
        line?.finishInterrupted()
        exit(status)
    }

    /// Stops handling the signals and gives them back their default actions.
    public func uninstall() {
        sources.withLock { boxes in
            for box in boxes {
                box.source.cancel()
                // A signal source's handle is its signal's number.
                signal(Int32(truncatingIfNeeded: box.source.handle), SIG_DFL)
            }
            boxes.removeAll()
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
