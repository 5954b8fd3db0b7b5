#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

// Which of stdout (bit 1) and stderr (bit 2) were closed when the process started.
private let closedAtStart = Atomic<UInt8>(0)

/// The process's two output writers: every byte bufprobe writes to stdout or stderr goes through
/// `writeOutput` or `writeError` (write(2), no stdio buffer, so nothing is lost or reordered at exit).
/// A failed write never traps: stdout reports its errno to the caller, stderr drops the rest (it only
/// carries progress and diagnostics; the exit code still tells what happened).
public enum StandardStreams {
    /// Puts /dev/null on any of descriptors 0, 1 and 2 that the parent closed (`>&-`), so a file that
    /// bufprobe opens later can never take their number and receive the report; a stdout that was
    /// closed still reports EBADF to `writeOutput`. Call once, first thing.
    public static func prepare() {
        var closed: UInt8 = 0
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            closed |= 1 << UInt8(descriptor)
            // open(2) returns the lowest free number, which is this one, as the lower ones are open.
            let null = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
            if null >= 0, null != descriptor {
                _ = dup2(null, descriptor)
                _ = close(null)
            }
        }
        closedAtStart.store(closed, ordering: .sequentiallyConsistent)
    }

    /// Writes all of `text` to stdout; returns the errno of a failed write (EBADF when stdout was
    /// closed at start), nil when every byte was written.
    public static func writeOutput(_ text: String) -> Int32? {
        if closedAtStart.load(ordering: .sequentiallyConsistent) & 0b10 != 0 { return EBADF }
        return write(text, to: 1)
    }

    /// Writes all of `text` to stderr, dropping it when stderr fails or was closed at start.
    public static func writeError(_ text: String) {
        if closedAtStart.load(ordering: .sequentiallyConsistent) & 0b100 != 0 { return }
        _ = write(text, to: 2)
    }

    /// Writes every byte, retrying after EINTR and partial writes; the errno of the first failure.
    private static func write(_ text: String, to descriptor: Int32) -> Int32? {
        var text = text
        return text.withUTF8 { bytes -> Int32? in
            guard let base = bytes.baseAddress else { return nil }
            var offset = 0
            while offset < bytes.count {
                let written = rawWrite(descriptor, base + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }

    private static func rawWrite(_ descriptor: Int32, _ pointer: UnsafePointer<UInt8>, _ count: Int) -> Int {
        #if canImport(Darwin)
        Darwin.write(descriptor, pointer, count)
        #elseif canImport(Musl)
        Musl.write(descriptor, pointer, count)
        #else
        Glibc.write(descriptor, pointer, count)
        #endif
    }
}
