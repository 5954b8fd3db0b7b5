import Foundation

/// Reads a small local file that describes a simulation (a script, a trace) with a cap on its size, so a
/// huge file, `/dev/zero` or an endless FIFO writer is refused instead of read into memory.
enum BoundedFile {
    /// The largest script `simulate --script` reads: 1 MiB (a script is a few lines; a timeline of ten
    /// thousand steps is under 300 kB).
    static let scriptLimit = 1 << 20
    /// The largest trace `--trace` reads: 16 MiB (a day of one-second samples in two columns is ~1.5 MB).
    static let traceLimit = 16 << 20

    /// Why a file was not read.
    enum Failure: Error {
        /// It cannot be opened or read.
        case unreadable
        /// It holds more than `limit` bytes.
        case tooLarge(limit: Int)
    }

    /// The file's bytes, at most `limit` of them; reading stops one byte past the limit.
    static func read(_ path: String, limit: Int) throws(Failure) -> Data {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .unreadable }
        defer { try? handle.close() }
        var data = Data()
        do {
            while data.count <= limit {
                guard let chunk = try handle.read(upToCount: min(64 << 10, limit + 1 - data.count)), !chunk.isEmpty
                else { break }
                data.append(chunk)
            }
        } catch {
            throw .unreadable
        }
        guard data.count <= limit else { throw .tooLarge(limit: limit) }
        return data
    }

    /// `limit` in words (`1 MiB`).
    static func describe(_ limit: Int) -> String { "\(limit >> 20) MiB" }
}
