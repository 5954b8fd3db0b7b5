/// One timed step of a simulation script: at session (wall) time `time`, something happens to the network
/// or the viewer acts.
public struct SimulationStep: Sendable, Hashable {
    /// What happens.
    public enum Action: Sendable, Hashable {
        /// The bandwidth becomes this many bits per second, until the next change.
        case bandwidth(Double)
        /// No data flows for this many seconds; afterwards the bandwidth is what it would have been.
        case outage(Double)
        /// The per-request latency becomes this many seconds.
        case latency(Double)
        /// The viewer seeks to this media time, in seconds from the media's start (`SimulationMedia.startTime`:
        /// where every played stream has data, so 0 for most files and the container's offset for
        /// MPEG-TS).
        case seek(Double)
        /// The viewer pauses for this many seconds, then resumes.
        case pause(Double)
        /// The playback rate becomes this factor (1 is normal speed).
        case rate(Double)
        /// The viewer presses play (for a session that starts without autoplay, or after a pause).
        case play
    }

    /// Session time in seconds (0 is when the viewer pressed play).
    public var time: Double
    /// What happens.
    public var action: Action

    /// Creates a step.
    public init(time: Double, action: Action) {
        self.time = time
        self.action = action
    }
}
