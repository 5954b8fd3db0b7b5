import ProgressLine
import Synchronization

/// The live line's rows of the inputs being checked, one per input in the order they began, titled with
/// its source (cut in the middle if long). Each row is posted by its check when its machine says a
/// snapshot is due (`CheckSession.observeProgress`, every `interval` on the check's clock): pushed, not
/// polled; the line draws at its own rate.
final class LiveRows: Sendable {
    /// How often each check posts its row, seconds.
    static let interval = 0.1
    private let line: LiveLine
    /// The newest row of each input still running, by input, and the inputs over.
    private let rows = Mutex<(shown: [Int: ProgressSnapshot], over: Set<Int>)>(([:], []))

    /// The rows of `line`.
    init(line: LiveLine) { self.line = line }

    /// Posts input `index`'s newest state and the rows of every input running (an input over stays off).
    func post(_ snapshot: ProgressSnapshot, of index: Int) {
        rows.withLock { rows in
            guard !rows.over.contains(index) else { return }
            rows.shown[index] = snapshot
            line.update(rows: rows.shown.sorted { $0.key < $1.key }.map(\.value))
        }
    }

    /// Input `index` is over: its row leaves the running ones (its final frame is the caller's).
    func end(_ index: Int) {
        rows.withLock { rows in
            rows.shown[index] = nil
            rows.over.insert(index)
        }
    }
}
