import Foundation
package import MediaIO
import Synchronization

/// One check's watch over a live DASH input: the manifest bufprobe read before FFmpeg did (with its clock),
/// the log of FFmpeg's own requests (`RequestLog`), and whether the player's start was noted yet.
/// Set up before the input opens (`CheckSession.prepareDASHLive()`), the start noted at the first packet, turned
/// into `dash_live` at the end. Thread-safe; the request log is collected on the reading thread.
package final class DASHLiveWatch: Sendable {
    /// What the watch knows once set up.
    struct Setup: Sendable {
        /// The rules, with the manifest and clock.
        var analysis: DASHLiveAnalysis
        /// The report's fixed part (manifest, clock).
        var base: DASHLiveReport
        /// Warnings from setting up (no usable clock).
        var warnings: [String]
    }

    /// FFmpeg's requests; handed to `MediaInput` only once set up.
    package let requestLog = RequestLog()
    private let state = Mutex<(setup: Setup?, startNoted: Bool)>((nil, false))

    /// An idle watch.
    package init() {}

    /// Whether a live manifest was read and the requests are being logged.
    package var isActive: Bool { state.withLock { $0.setup != nil } }

    /// Starts watching with `setup`.
    func start(_ setup: Setup) { state.withLock { $0.setup = setup } }

    /// The setup, when active.
    var setup: Setup? { state.withLock { $0.setup } }

    /// `true` the first time it is called once active: the caller notes the start then.
    func claimAnchor() -> Bool {
        state.withLock { state in
            guard state.setup != nil, !state.startNoted else { return false }
            state.startNoted = true
            return true
        }
    }
}
