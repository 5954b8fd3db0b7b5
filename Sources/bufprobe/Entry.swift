import BufprobeCommands

/// The executable is only the entry point; every command lives in BufprobeCommands.
@main
enum Entry {
    static func main() async {
        await Bufprobe.runAndExit()
    }
}
