import Dispatch
import ProgressLine

/// The entry point: the root command (`Bufprobe`) runs probe, check and simulate (BufprobeCommands) and
/// serve (the exporter in BufprobeServe, the one target with SwiftNIO).
@main
enum Entry {
    // Synchronous on purpose: the standard descriptors must be checked before the concurrency runtime
    // opens its own descriptors, which would otherwise take the number of a closed stdout.
    static func main() {
        StandardStreams.prepare()
        // Bufprobe.runAndExit ends the process itself (Termination), so the main queue never has to stop.
        Task { await Bufprobe.runAndExit() }
        dispatchMain()
    }
}
