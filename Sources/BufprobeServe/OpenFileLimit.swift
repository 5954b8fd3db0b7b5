#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's open-file limit (`RLIMIT_NOFILE`), which bounds what `serve` can hold at once: every
/// client connection is one file, every check a few (its connection to the target, a playlist reload or
/// segment opened beside it, the pipe or file FFmpeg keeps).
package enum OpenFileLimit {
    /// Files one check may hold: a progressive check holds one, its connection to the target (64 checks:
    /// 129 sockets in /proc/PID/fd, the listener, 64 clients and 64 targets); an HLS check may have a
    /// playlist reload and a segment open at once. Twice that, for what FFmpeg opens beside them.
    package static let perCheck = 4
    /// Files the exporter holds besides checks and clients: the listening socket, the event loops' epoll
    /// and eventfd descriptors, stdio, FFmpeg's and Foundation's own, with room to spare.
    package static let reserve = 64

    /// Files `serve` may need with `maxParallel` checks and `connections` client connections.
    package static func needed(maxParallel: Int, connections: Int) -> Int {
        connections + maxParallel * perCheck + reserve
    }

    /// Raises the soft limit to the hard one (as Go's runtime does at start, since the soft default of
    /// 1,024 is a convention from `select()`, not a resource bound) and returns the limit now in force;
    /// `nil` when it cannot be read.
    package static func raise() -> Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur >= rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }
}
