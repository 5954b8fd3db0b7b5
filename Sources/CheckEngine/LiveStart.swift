package import MediaIO
import BufprobeOutput

/// `--live-start`: where in a live HLS playlist the check starts playing, as players choose it.
///
/// Players start behind the live edge by a hold-back, not at the oldest segment nor at the newest: hls.js
/// at `liveSyncDurationCount` (3) target durations, AVPlayer and RFC 8216bis §6.3.3 at `HOLD-BACK` (three
/// target durations unless the playlist's `EXT-X-SERVER-CONTROL` says otherwise). bufprobe starts at the
/// start of the segment that holds the edge minus that hold-back (FFmpeg's HLS demuxer starts at a
/// segment's start; a player that seeks inside the segment starts up to one segment closer to the edge).
public enum LiveStart: Sendable, Hashable, CustomStringConvertible {
    /// The playlist's `HOLD-BACK`, else three target durations (the default).
    case holdBack
    /// The newest segment listed: the lowest latency a segment player can have.
    case edge
    /// The oldest segment listed: the whole time-shift window behind.
    case windowStart
    /// This many seconds behind the edge.
    case behind(Double)

    /// Reads `hold-back`, `edge`, `window-start`, or seconds behind the edge (`12`, `12s`, `1.5s`), as
    /// `--live-start` takes it.
    public init?(argument text: String) {
        switch text.lowercased() {
        case "hold-back", "holdback": self = .holdBack
        case "edge": self = .edge
        case "window-start", "start", "oldest": self = .windowStart
        default:
            let number = text.hasSuffix("s") ? String(text.dropLast()) : text
            guard let seconds = Double(number), seconds.isFinite, seconds >= 0, seconds <= ResourceLimits.longestDuration else {
                return nil
            }
            self = .behind(seconds)
        }
    }

    /// As `--live-start` takes it.
    public var description: String {
        switch self {
        case .holdBack: "hold-back"
        case .edge: "edge"
        case .windowStart: "window-start"
        case .behind(let seconds): "\(TextFormat.seconds(seconds)) behind the edge"
        }
    }

    /// How far behind the newest listed media `playlist` starts, and the rule's name: the one mapping of
    /// both paths (`start(in:)`, segments; `LowLatencyPlayback`, parts). The default is the playlist's own
    /// hold-back (`PART-HOLD-BACK` when playing parts, else `HOLD-BACK`, else three target durations; `nil`
    /// when it gives none); `window-start` is the whole window (infinity when playing parts: the oldest part).
    package func target(in playlist: HLSPlaylist, playsParts: Bool) -> (seconds: Double, rule: String)? {
        switch self {
        case .holdBack: playlist.holdBack(playsParts: playsParts)
        case .edge: (0, "--live-start edge")
        case .windowStart: (playsParts ? .infinity : playlist.totalDuration, "--live-start window-start")
        case .behind(let seconds): (seconds, "--live-start")
        }
    }

    /// Where to start in `playlist` (a live media playlist): FFmpeg's `live_start_index` (negative counts
    /// from the end, as the demuxer takes it, so a segment added before FFmpeg's own read keeps the same
    /// distance from the edge), the hold-back aimed at, and the rule that gave it. `nil` for an empty
    /// playlist.
    package func start(in playlist: HLSPlaylist) -> (liveStartIndex: Int, target: Double?, rule: String)? {
        let segments = playlist.segments
        guard !segments.isEmpty else { return nil }
        guard let (target, rule) = target(in: playlist, playsParts: false) else { return (-3, nil, "FFmpeg's 3 segments") }
        switch self {
        case .edge: return (-1, target, rule)
        case .windowStart: return (0, target, rule)
        case .holdBack, .behind: break
        }
        // The segment that holds the point `target` behind the edge (the oldest when the window is shorter).
        var behind = 0.0
        var index = segments.count - 1
        while index > 0 {
            behind += segments[index].duration
            if behind >= target { break }
            index -= 1
        }
        return (index - segments.count, target, rule)
    }
}
