public import Foundation

/// `.build/test-cache`: what the tests make once (encodings, media) and keep between runs, and the locks
/// that let the test processes `scripts/test.sh` runs side by side take turns.
public enum TestCache {
    /// The folder, created on first use.
    public static let folder: URL = {
        let url = BufprobeProcess.packageRoot.appendingPathComponent(".build/test-cache")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// Runs `body` holding the exclusive lock `name` (a file in `folder`, `flock`ed): one process at a time
    /// on this checkout, the others wait their turn. The lock is let go however `body` ends.
    public static func exclusively<T>(_ name: String, _ body: () throws -> T) throws -> T {
        let path = folder.appendingPathComponent("\(name).lock").path
        let lock = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw CheckServers.ServerError("could not open the lock \(path)") }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else { throw CheckServers.ServerError("could not take the lock \(path)") }
        }
        defer { flock(lock, LOCK_UN) }
        return try body()
    }
}
