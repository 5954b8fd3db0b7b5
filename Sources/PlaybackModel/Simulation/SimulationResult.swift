/// What a simulation produced: the event timeline and the player's QoE report.
public struct SimulationResult: Sendable, Hashable {
    /// The event timeline, in time order.
    public var events: [SimulationEvent]
    /// The player's QoE report (startup delay, stalls, seeks, played time).
    public var report: QoEReport
    /// Session time when the simulation stopped, in seconds.
    public var duration: Double
    /// Bytes received over the network.
    public var bytesReceived: Int64
    /// Requests sent.
    public var requests: Int
    /// Whether the session is over (as opposed to stopped at a time limit).
    public var finished: Bool
    /// Session seconds the player played on audio alone, its picture frozen though it was not stalled: the
    /// browser's video-underflow grace over a separate audio track (`SimulationEngine.videoUnderflowGrace`);
    /// 0 without one.
    public var audioAloneTime: Double

    /// How long a viewer saw a frozen picture: the stalls' total and the time audio played on alone.
    public var frozenPictureTime: Double { report.stallTime + audioAloneTime }

    /// Creates a result.
    public init(
        events: [SimulationEvent], report: QoEReport, duration: Double, bytesReceived: Int64, requests: Int,
        finished: Bool, audioAloneTime: Double = 0
    ) {
        self.events = events
        self.report = report
        self.duration = duration
        self.bytesReceived = bytesReceived
        self.requests = requests
        self.finished = finished
        self.audioAloneTime = audioAloneTime
    }
}
