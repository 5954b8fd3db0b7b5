import BufprobeCommands

// The executable is only the entry point; every command lives in BufprobeCommands.
await Bufprobe.main()
