import BufprobeCommands
import BufprobeServe
import Dispatch
import ProgressLine

/// The executable is only the entry point; every command lives in BufprobeCommands, but `serve`, which lives
/// in BufprobeServe (the one target with SwiftNIO) and is added here.
@main
enum Entry {
    // Synchronous on purpose: the standard descriptors must be checked before the concurrency runtime
    // opens its own descriptors, which would otherwise take the number of a closed stdout.
    static func main() {
        StandardStreams.prepare()
        Bufprobe.add([Serve.self])
        // Bufprobe.runAndExit ends the process itself (Termination), so the main queue never has to stop.
        Task { await Bufprobe.runAndExit() }
        dispatchMain()
    }
}
