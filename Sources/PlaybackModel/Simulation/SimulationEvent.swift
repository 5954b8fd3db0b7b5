/// One entry of a simulation's event timeline.
public struct SimulationEvent: Sendable, Hashable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The session began: the viewer pressed play (or opened the media, without autoplay) and the first
        /// request goes out.
        case session
        /// Playback started (`value`: the startup delay in seconds).
        case startup
        /// A stall began at `position`.
        case stallStart = "stall_start"
        /// A stall ended (`value`: its duration in seconds).
        case stallEnd = "stall_end"
        /// The viewer sought from `position` to `value` (media time).
        case seek
        /// A seek finished waiting for data (`value`: its latency in seconds).
        case seekComplete = "seek_complete"
        /// The viewer paused (`value`: for how long, in seconds).
        case pause
        /// The viewer resumed after a pause.
        case resume
        /// The viewer pressed play (a session without autoplay).
        case play
        /// The playback rate changed (`value`: the new rate).
        case rate
        /// The bandwidth changed by script (`value`: bits per second).
        case bandwidth
        /// An outage began (`value`: its length in seconds).
        case outageStart = "outage_start"
        /// An outage ended.
        case outageEnd = "outage_end"
        /// The request latency changed by script (`value`: seconds).
        case latency
        /// A new request went out because a seek left the loaded data (`value`: its byte offset).
        case request
        /// The adaptive rule moved to another variant for the next segment (`value`: its bit rate).
        case variantSwitch = "switch"
        /// The last byte of the media arrived.
        case downloadComplete = "download_complete"
        /// After the end of the stream, the playhead jumped a hole in the media (`value`: the hole's length).
        case gapSkipped = "gap_skipped"
        /// The picture froze while the audio plays on alone past the end of the video's data (the browser's
        /// video-underflow grace over a separate audio track): not a stall, but what a viewer sees as one.
        case audioAlone = "audio_alone"
        /// Playback reached the end of the media.
        case end
        /// Nothing can happen any more (the network is down for good, the player failed, or it was paused
        /// with no resume to come): the simulation stopped before the end.
        case stuck
    }

    /// Session (wall) time in seconds.
    public var time: Double
    /// What happened.
    public var kind: Kind
    /// The playhead at that time, in media seconds.
    public var position: Double
    /// The kind's figure, when it has one (see `Kind`).
    public var value: Double?

    /// Creates an event.
    public init(time: Double, kind: Kind, position: Double, value: Double? = nil) {
        self.time = time
        self.kind = kind
        self.position = position
        self.value = value
    }
}
