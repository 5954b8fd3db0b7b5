#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization

/// Ctrl-Z for a command that changed the terminal (raw keyboard mode): on SIGTSTP it gives the
/// terminal back (`beforeStop`, then the live line is erased and the cursor shown), stops the process
/// with SIGSTOP, and once the shell continues it (`fg`, SIGCONT) takes the terminal again
/// (`afterContinue`) and redraws the line. A SIGCONT after a stop it did not cause (`kill -STOP`)
/// takes the terminal again too, as the shell may have reset it meanwhile. Every command with a live
/// line installs it, so that a stopped bufprobe never leaves the shell a hidden cursor.
public final class TerminalSuspend: Sendable {
    private let line: LiveLine?
    private let beforeStop: @Sendable () -> Void
    private let afterContinue: @Sendable () -> Void
    private let sources = Mutex<[DispatchSignalBox]>([])
    private let stopped = Mutex<Double>(0)

    private init(line: LiveLine?, beforeStop: @escaping @Sendable () -> Void, afterContinue: @escaping @Sendable () -> Void) {
        self.line = line
        self.beforeStop = beforeStop
        self.afterContinue = afterContinue
    }

    /// Installs the handlers for SIGTSTP and SIGCONT until `uninstall()`; `beforeStop` and
    /// `afterContinue` give back and take again what the command changed besides the line (raw mode).
    @discardableResult
    public static func install(
        line: LiveLine?, beforeStop: @escaping @Sendable () -> Void = {},
        afterContinue: @escaping @Sendable () -> Void = {}
    ) -> TerminalSuspend {
        let handler = TerminalSuspend(line: line, beforeStop: beforeStop, afterContinue: afterContinue)
        handler.sources.withLock { boxes in
            let queue = DispatchQueue(label: "bufprobe.suspend")
            signal(SIGTSTP, SIG_IGN)
            let stop = DispatchSource.makeSignalSource(signal: SIGTSTP, queue: queue)
            stop.setEventHandler { handler.suspend() }
            stop.resume()
            // SIGCONT keeps its default action (continuing is not optional); the source only observes it.
            let resume = DispatchSource.makeSignalSource(signal: SIGCONT, queue: queue)
            resume.setEventHandler { handler.resumed() }
            resume.resume()
            boxes = [DispatchSignalBox(source: stop), DispatchSignalBox(source: resume)]
        }
        return handler
    }

    /// Gives the terminal back, stops the process, and takes the terminal again once continued.
    func suspend() {
        guard !Termination.isEnding else { return }
        beforeStop()
        line?.hide()
        // SIGSTOP cannot be ignored. `raise` directs it at this thread (tgkill), so the stop happens
        // before the call returns and this call returns only after `fg`; `kill(getpid())` lets another
        // thread take the signal while this one runs on and puts the terminal back in raw mode first.
        let stoppedAt = MonotonicClock.seconds()
        raise(SIGSTOP)
        let seconds = MonotonicClock.seconds() - stoppedAt
        stopped.withLock { $0 += seconds }
        resumed()
    }

    /// Wall seconds the process spent stopped by Ctrl-Z so far: a paced command leaves them out of its
    /// clock, so that `fg` resumes where it stopped instead of catching up at once.
    public var stoppedSeconds: Double { stopped.withLock { $0 } }

    private func resumed() {
        guard !Termination.isEnding else { return }
        afterContinue()
        line?.show()
    }

    /// Stops handling Ctrl-Z (SIGTSTP gets its default action back).
    public func uninstall() {
        sources.withLock { boxes in
            for box in boxes { box.source.cancel() }
            if !boxes.isEmpty { signal(SIGTSTP, SIG_DFL) }
            boxes.removeAll()
        }
    }
}
