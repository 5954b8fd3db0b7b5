import Synchronization
import MediaIO

/// What `StreamValidation`'s workers share: the next segment to read, the results, the bytes spent against
/// `--max-bytes`, the `--max-time` deadline, and the `#EXT-X-MAP` sections already read.
final class SegmentWork: Sendable {
    private struct State {
        var next = 0
        var results: [SegmentRead?]
        var bytes: Int64 = 0
        var stopReason: String?
        var maps: [String: [UInt8]] = [:]
    }
    private let state: Mutex<State>
    private let maxBytes: Int64
    private let deadline: ContinuousClock.Instant

    /// Work for `tasks` segments within `maxBytes` and before `deadline`.
    init(tasks: Int, maxBytes: Int64, deadline: ContinuousClock.Instant) {
        state = Mutex(State(results: Array(repeating: nil, count: tasks)))
        self.maxBytes = maxBytes
        self.deadline = deadline
    }

    /// The next task, or `nil` when all are taken or a bound (bytes, time, cancellation) stops the reading.
    func next(cancelled: Bool) -> Int? {
        state.withLock { state in
            guard state.stopReason == nil, state.next < state.results.count else { return nil }
            if cancelled {
                state.stopReason = "the run was interrupted"
                return nil
            }
            if state.bytes >= maxBytes {
                state.stopReason = "--max-bytes (\(maxBytes) bytes) was reached"
                return nil
            }
            if ContinuousClock.now >= deadline {
                state.stopReason = "--max-time was reached"
                return nil
            }
            defer { state.next += 1 }
            return state.next
        }
    }

    /// Why the reading stopped early, if it did.
    var stopReason: String? { state.withLock { $0.stopReason } }

    /// Counts `bytes` read.
    func spend(_ bytes: Int64) { state.withLock { $0.bytes += bytes } }

    /// Records a result.
    func store(_ result: SegmentRead, at position: Int) {
        state.withLock { state in
            if state.results.indices.contains(position) { state.results[position] = result }
        }
    }

    /// The results by task position (`nil`: not read).
    var results: [SegmentRead?] { state.withLock { $0.results } }

    /// The map section at `uri` (and `range`), read once by `load` and kept for the next segments.
    func map<E: Error>(_ uri: String, range: HLSPlaylist.ByteRange?, load: () throws(E) -> [UInt8]) throws(E) -> [UInt8] {
        let key = "\(uri)#\(range.map { "\($0.offset)-\($0.length)" } ?? "")"
        if let known = state.withLock({ $0.maps[key] }) { return known }
        let bytes = try load()
        // A stream has a few map sections; a hostile one naming thousands keeps only the first 64.
        state.withLock { state in if state.maps.count < 64 { state.maps[key] = bytes } }
        return bytes
    }
}
