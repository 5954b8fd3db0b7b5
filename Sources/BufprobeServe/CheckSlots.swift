import Synchronization

/// The checks `serve` runs at once (`--max-parallel`): a request beyond the limit is answered 503 at once
/// instead of queueing, so a scrape never waits behind others until it times out.
package final class CheckSlots: Sendable {
    /// The most checks at once.
    package let limit: Int
    private let state = Mutex<(inFlight: Int, peak: Int)>((0, 0))

    /// Slots for `limit` checks.
    package init(limit: Int) { self.limit = limit }

    /// Takes a slot; `false` when all are taken (answer 503).
    package func acquire() -> Bool {
        state.withLock { state in
            guard state.inFlight < limit else { return false }
            state.inFlight += 1
            state.peak = max(state.peak, state.inFlight)
            return true
        }
    }

    /// Gives back a slot `acquire()` took.
    package func release() {
        state.withLock { $0.inFlight = max(0, $0.inFlight - 1) }
    }

    /// Checks running now.
    package var inFlight: Int { state.withLock { $0.inFlight } }

    /// The most checks that ran at once since the start.
    package var peak: Int { state.withLock { $0.peak } }
}
