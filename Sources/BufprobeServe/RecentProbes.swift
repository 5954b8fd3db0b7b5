package import Foundation
import Synchronization

/// The last `capacity` probes the exporter answered, for the `/` page and `/logs?id=N`: target, module,
/// verdict, time and the check's log (the debug answer's text, cut at `longestLog` bytes). A bounded
/// ring: memory is at most `capacity` x `longestLog` whatever the traffic.
package final class RecentProbes: Sendable {
    /// One probe.
    package struct Entry: Sendable {
        /// Its number, counting from 1 since the start (the `id` of `/logs`).
        package var id: Int
        /// When it ended.
        package var time: Date
        /// The target.
        package var target: String
        /// The module's name.
        package var module: String
        /// `pass`, `degraded` or `fail`.
        package var verdict: String
        /// Seconds it took.
        package var seconds: Double
        /// The debug text.
        package var log: String
    }

    /// How many are kept.
    package let capacity: Int
    /// The longest log kept, bytes.
    package static let longestLog = 64 * 1024
    private let state: Mutex<(next: Int, entries: [Entry])>

    /// A ring of `capacity` probes.
    package init(capacity: Int = 100) {
        self.capacity = max(1, capacity)
        state = Mutex((1, []))
    }

    /// Records a probe and returns its id.
    @discardableResult
    package func add(target: String, module: String, verdict: String, seconds: Double, log: String, time: Date = Date()) -> Int {
        let kept = log.utf8.count <= Self.longestLog ? log : String(decoding: log.utf8.prefix(Self.longestLog), as: UTF8.self) + "\n[cut]\n"
        return state.withLock { state in
            let id = state.next
            state.next += 1
            state.entries.append(Entry(id: id, time: time, target: target, module: module, verdict: verdict, seconds: seconds, log: kept))
            if state.entries.count > capacity { state.entries.removeFirst(state.entries.count - capacity) }
            return id
        }
    }

    /// The probes kept, newest first.
    package var entries: [Entry] { state.withLock { $0.entries.reversed() } }

    /// The probe `id`, if still kept.
    package func entry(id: Int) -> Entry? { state.withLock { $0.entries.first { $0.id == id } } }
}
