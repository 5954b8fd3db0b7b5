internal import CFFmpegShims
import Synchronization

/// The HTTP requests FFmpeg sends on one reading thread, and the error answers it reads, with when: what
/// FFmpeg 5.1's `dash` demuxer requests past `io_open` (manifest reloads, init sections, segments), which
/// the resource gate cannot see. Read from what FFmpeg's http protocol logs (`cffmpeg_request_log_*`):
/// each request's URL is its context's `location`, each time the system clock's when FFmpeg logged it.
///
/// Why a log of FFmpeg's own requests rather than bufprobe requesting the same resources again: the
/// figures judged (when the player reloaded the manifest, which segment it asked for when, which answered
/// 404) are the player's, and no second request disturbs the origin or competes with the player.
///
/// `MediaInput` begins it on the thread that opens the input and collects after the open and after every
/// read; `end()` must be called on that thread (the check's reading thread) when reading is over. At most
/// `maximumEntries` are kept (the oldest first); later ones are counted in `dropped`.
public final class RequestLog: Sendable {
    /// One request or answer.
    public struct Entry: Sendable, Hashable, Codable {
        /// The URL (empty when FFmpeg's context did not say, or it was longer than 1023 bytes).
        public var url: String
        /// Seconds since 1970 on this machine's clock, when FFmpeg logged it.
        public var unixTime: Double
        /// 0 for a request sent; the HTTP status of an error answer (404...).
        public var status: Int

        /// An entry (tests make their own).
        public init(url: String, unixTime: Double, status: Int) {
            self.url = url
            self.unixTime = unixTime
            self.status = status
        }
    }

    /// The most entries kept.
    public static let maximumEntries = 20_000

    private struct State {
        var entries: [Entry] = []
        var dropped = 0
    }

    private let state = Mutex(State())

    /// An empty log.
    public init() {}

    /// Starts recording on the calling thread (clears what an earlier log on this thread left).
    func begin() { cffmpeg_request_log_begin() }

    /// Moves what the calling thread recorded into the log.
    func collect() {
        var buffer = [CChar](repeating: 0, count: 1024)
        var time = 0.0
        var status: Int32 = 0
        var taken: [Entry] = []
        while cffmpeg_request_log_take(&buffer, buffer.count, &time, &status) == 1 {
            let url = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            taken.append(Entry(url: url, unixTime: time, status: Int(status)))
        }
        let droppedHere = Int(cffmpeg_request_log_dropped())
        state.withLock { state in
            let room = max(Self.maximumEntries - state.entries.count, 0)
            state.entries += taken.prefix(room)
            state.dropped = max(state.dropped, droppedHere) + max(taken.count - room, 0)
        }
    }

    /// Collects what is left and stops recording. Call on the thread that read the input.
    public func end() {
        collect()
        cffmpeg_request_log_end()
    }

    /// Everything recorded so far, oldest first.
    public var entries: [Entry] { state.withLock { $0.entries } }

    /// Entries not kept (the C ring or this log was full).
    public var dropped: Int { state.withLock { $0.dropped } }
}
