#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

private let ending = Atomic<Bool>(false)

/// The one owner of the process's exit: whoever claims it first (the command finishing, a signal
/// handler, a failed write to stdout) decides the exit status; a later caller waits for that exit
/// instead of racing it with a status of its own.
public enum Termination {
    /// The exit status when the results could not be written to stdout (BSD's EX_IOERR).
    public static let outputErrorStatus: Int32 = 74

    /// Claims the exit; true for the first caller only.
    public static func claim() -> Bool {
        ending.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged
    }

    /// Whether someone has claimed the exit.
    public static var isEnding: Bool { ending.load(ordering: .sequentiallyConsistent) }

    /// Exits with `status` if nobody else is ending the process; otherwise waits for that exit.
    public static func exit(_ status: Int32) -> Never {
        if claim() { exitNow(status) }
        waitForExit()
    }

    /// Exits with `status`; for a caller whose `claim()` returned true.
    public static func exitNow(_ status: Int32) -> Never {
        #if canImport(Darwin)
        Darwin.exit(status)
        #elseif canImport(Musl)
        Musl.exit(status)
        #else
        Glibc.exit(status)
        #endif
    }

    /// Writes `text` to stdout; if that fails, ends the process: one `error:` sentence on stderr (where
    /// it can still be written) and exit status 74.
    public static func writeOutput(_ text: String) {
        guard let failure = StandardStreams.writeOutput(text) else { return }
        guard claim() else { waitForExit() }
        StandardStreams.writeError("error: \(outputErrorSentence(errno: failure))\n")
        exitNow(outputErrorStatus)
    }

    /// The sentence for a failed write to stdout.
    public static func outputErrorSentence(errno failure: Int32) -> String {
        if failure == EBADF {
            return "standard output is closed, so the results could not be written; give bufprobe a file or a pipe to write to."
        }
        let reason = String(cString: strerror(failure))
        return "could not write the results to standard output (\(reason)); make room on the disk or keep the reading end of the pipe open."
    }

    private static func waitForExit() -> Never {
        while true { pause() }
    }
}
