/// Where a `Player` is; each case carries the clock time (seconds on the caller's clock) it began at.
public enum PlayerState: Sendable, Hashable {
    /// Initial loading before playback first starts: the wait is startup delay.
    case loading(since: Double)
    /// The playhead moves at the playback rate.
    case playing(since: Double)
    /// Stopped by the user (`pause`, or rate 0); loading continues up to the forward target.
    case paused(since: Double)
    /// Playing was wanted but the playhead reached the end of the loaded data before the end of the media:
    /// a stall (rebuffering), at media time `position`.
    case stalled(position: Double, since: Double)
    /// Waiting for data at a seek target outside the loaded ranges: seek latency, not a stall.
    case seeking(from: Double, to: Double, since: Double)
    /// The playhead reached the end of the media.
    case ended(since: Double)
    /// Playback failed; no event moves the player on.
    case failed(reason: String, since: Double)

    /// The lower-case name of the case (`"loading"`, `"playing"`, ...), for text and JSON output.
    public var name: String {
        switch self {
        case .loading: "loading"
        case .playing: "playing"
        case .paused: "paused"
        case .stalled: "stalled"
        case .seeking: "seeking"
        case .ended: "ended"
        case .failed: "failed"
        }
    }

    /// The clock time the state began at.
    public var since: Double {
        switch self {
        case .loading(let since), .playing(let since), .paused(let since), .ended(let since):
            since
        case .stalled(_, let since), .seeking(_, _, let since), .failed(_, let since):
            since
        }
    }

    /// Whether no event but a seek can move the player on (`ended`), or nothing can (`failed`).
    public var isTerminal: Bool {
        switch self {
        case .ended, .failed: true
        default: false
        }
    }

    /// Whether playback is paused (by the viewer, or opened without autoplay).
    public var isPaused: Bool {
        if case .paused = self { return true }
        return false
    }
}
