import MediaIO

/// Process-wide settings the commands make at start, made once for library callers.
package enum LibrarySetup {
    /// FFmpeg's log goes through bufprobe's sink (kept error lines, nothing on stderr), installed again at
    /// every call as each command does at its start (FFmpeg's log callback is one per process, and another
    /// part of the program may have installed its own since); the packet loop's allocator setting applies
    /// once.
    package static func once() {
        FFmpegLog.install(logger: Diagnostics.logger(verbose: false), verbose: false)
        _ = tuned
    }

    private static let tuned: Bool = {
        PacketAllocator.tune()
        return true
    }()
}
