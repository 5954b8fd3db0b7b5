import ArgumentParser
import ProgressLine

extension Bufprobe {
    /// Runs the command line and ends the process through `Termination`, the one owner of the exit
    /// status (a signal handler or a failed write to stdout may claim it first). ArgumentParser's own
    /// `main()` would call `exit` itself, racing the Ctrl-C handler; its messages (help, usage errors)
    /// go through bufprobe's writers here instead, so a full or closed stdout is an error, not a trap.
    /// The executable calls `StandardStreams.prepare()` before it.
    public static func main() async {
        let status: Int32
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            status = 0
        } catch {
            status = exitCode(for: error).rawValue
            let message = fullMessage(for: error)
            if !message.isEmpty {
                // Help and --version are results (stdout); everything else is a diagnostic (stderr).
                if status == 0 {
                    Diagnostics.standardOutput(message + "\n")
                } else {
                    Diagnostics.standardError(message + "\n")
                }
            }
        }
        Termination.exit(status)
    }
}
