package import MediaIO
package import PlaybackModel
package import BufprobeOutput

/// The `bufprobe simulate --json` document. Property names become snake_case keys (`JSONOutput`); missing
/// values are written as `null`; seconds are rounded to the microsecond. Keys are stable: new ones may be
/// added, existing ones keep their meaning (`schema_version` changes otherwise).
package struct SimulateReport: Sendable, Codable, Hashable {
    /// Version of this JSON layout.
    package var schemaVersion = 1
    /// The bufprobe version that wrote the document.
    package var bufprobeVersion = BufprobeVersion.string
    /// The FFmpeg libraries that read the media (`--version` lists the same).
    package var ffmpegVersions = FFmpegVersions.current
    /// The media simulated.
    package var source: Source
    /// The network it was simulated over.
    package var network: Network
    /// The buffer policy the player ran with.
    package var policy: Policy
    /// Seconds from the session start (play pressed) to the first frame.
    package var startupDelay: Double
    /// Whether playback ever started.
    package var started: Bool
    /// Number of stalls (rebuffering events after startup).
    package var stallCount: Int
    /// Seconds spent stalled in total.
    package var stallTime: Double
    /// Seconds a viewer saw a frozen picture: the stalls and the time the audio played on alone past the
    /// video's end (the browser's video-underflow grace over a separate audio track); absent when the
    /// picture froze only during the stalls (the documents of every other run stay as they were).
    package var frozenPictureTime: Double?
    /// Stall time over stall time plus playing time; `null` when playback never started.
    @NullEncoded package var rebufferRatio: Double?
    /// Every stall: media position, session time it began, seconds it lasted.
    package var stalls: [QoEReport.Stall]
    /// Every seek made after startup: from, to, session time, seconds waited for data.
    package var seeks: [QoEReport.Seek]
    /// Seconds waited for seeks in total.
    package var seekWaitTime: Double
    /// Seconds paused in total.
    package var pausedTime: Double
    /// Media seconds played.
    package var played: Double
    /// Session seconds spent playing.
    package var playedWallTime: Double
    /// Whether playback reached the end of the media.
    package var ended: Bool
    /// Session time when the simulation stopped, in seconds.
    package var sessionTime: Double
    /// Bytes received over the network.
    package var bytesReceived: Int64
    /// Requests sent.
    package var requests: Int
    /// The event timeline.
    package var events: [Event]
    /// The tracks fetched: `video`, then `audio` when a separate audio track was fetched beside it.
    package var tracks = ["video"]
    /// Every request, by the time it was sent (`SimulateReport.Request`).
    package var requestLog: [Request] = []
    /// The adaptive session (`--abr`): variants used, switches, average bit rate, QoE; absent without it.
    package var abr: Abr?
    /// `false` when the media read stops short of what the input declares (truncated or damaged): the
    /// session played what was read, `source.duration` of `source.declared_duration` (exit 3).
    package var complete = true
    /// Sentences about the media, as probe's report words them: why it stops short when it does.
    package var warnings: [String] = []

    /// What was simulated.
    package struct Source: Sendable, Codable, Hashable {
        /// `file` (local), `network` (a URL), `hls`, `dash` or `synthetic`.
        package var kind: String
        /// The path (with the variant for HLS) or the synthetic description.
        package var description: String
        /// Media length in seconds: what was read, from the playable start.
        package var duration: Double
        /// The length the container declares, seconds; `null` when it declares none (synthetic media,
        /// playlists, MPEG-TS).
        @NullEncoded package var declaredDuration: Double?
        /// Media start time in seconds (first presentation time).
        package var startTime: Double
        /// Bytes of the resource (all segments for HLS).
        package var bytes: Int64
        /// Packets (progressive) or segments (HLS) downloaded as units.
        package var units: Int
        /// `progressive` (one request, byte order) or `segmented` (one request per segment).
        package var layout: String
        /// Whether the file's index follows the media (MP4 `moov` at the end): nothing plays before it is in.
        package var indexAtEnd: Bool
        /// How a file whose index follows the media was fetched: `ranges` or `sequential`
        /// (`--download`); absent for every other source.
        package var download: String?
        /// The separate audio track fetched beside the video; absent without one.
        package var audio: String?
    }

    /// The network settings.
    package struct Network: Sendable, Codable, Hashable {
        /// Constant bandwidth in bits per second, or `null` with a trace.
        @NullEncoded package var bandwidth: Double?
        /// The trace file, or `null`.
        @NullEncoded package var trace: String?
        /// Per-request latency in seconds.
        package var latency: Double
        /// Whether the network was constrained (lower forward-buffer target).
        package var constrained: Bool
    }

    /// The policy settings.
    package struct Policy: Sendable, Codable, Hashable {
        /// Seconds buffered to start.
        package var startThreshold: Double
        /// Seconds buffered to resume after a stall.
        package var resumeThreshold: Double
        /// Seconds buffered at which loading stops.
        package var maxBuffer: Double
        /// Seconds kept behind the playhead.
        package var backBuffer: Double
        /// `--player`'s preset name; absent without one.
        package var player: String?
        /// The cap a doubling resume threshold grows to; absent when the resume threshold is fixed.
        package var resumeCap: Double?
        /// Seconds still ahead at which playing stalls (`BufferPolicy.stallLevel`); absent when 0.
        package var stallLevel: Double?
    }

    /// One timeline entry.
    package struct Event: Sendable, Codable, Hashable {
        /// Session time in seconds.
        package var time: Double
        /// What happened: see `SimulationEvent.Kind` (`session`, `startup`, `stall_start`, `stall_end`,
        /// `seek`, `seek_complete`, `pause`, `resume`, `play`, `rate`, `bandwidth`, `outage_start`, `outage_end`,
        /// `latency`, `request`, `download_complete`, `gap_skipped`, `end`, `stuck`).
        package var type: String
        /// The playhead, media seconds.
        package var position: Double
        /// The type's figure (startup delay, stall duration, seek target, bandwidth...), or `null`.
        @NullEncoded package var value: Double?
    }
}

extension SimulateReport {
    /// Builds the document from a finished simulation.
    package init(
        result: SimulationResult, source: SimulationSource, network: Network, policy: BufferPolicy,
        player: PlayerPreset? = nil
    ) {
        let report = result.report
        let s = JSONOutput.seconds
        self.source = Source(
            kind: source.kind, description: source.description, duration: s(source.media.duration),
            declaredDuration: source.declaredDuration.map(s), startTime: s(source.media.startTime), bytes: source.media.totalBytes, units: source.media.unitCount,
            layout: source.media.layout == .progressive ? "progressive" : "segmented",
            indexAtEnd: source.media.download != .sequential,
            download: source.media.download == .sequential
                ? nil : (source.media.download.fetchesIndexByRange ? DownloadMode.ranges : .sequential).rawValue)
        self.network = network
        self.policy = Policy(
            startThreshold: policy.startThreshold, resumeThreshold: policy.resumeThreshold,
            maxBuffer: policy.forwardTarget, backBuffer: policy.backBuffer, player: player?.rawValue,
            resumeCap: policy.resumeCap, stallLevel: policy.stallLevel > 0 ? policy.stallLevel : nil)
        if let shortfall = source.shortfall {
            complete = false
            warnings = [shortfall]
        }
        startupDelay = s(report.startupDelay)
        started = report.started
        stallCount = report.stallCount
        stallTime = s(report.stallTime)
        frozenPictureTime = result.audioAloneTime > 0 ? s(result.frozenPictureTime) : nil
        rebufferRatio = report.rebufferRatio.map { ($0 * 1_000_000).rounded() / 1_000_000 }
        stalls = report.stalls.map(\.roundedForJSON)
        seeks = report.seeks.map(\.roundedForJSON)
        seekWaitTime = s(report.seekWaitTime)
        pausedTime = s(report.pausedTime)
        played = s(report.played)
        playedWallTime = s(report.playedWallTime)
        ended = report.ended
        sessionTime = s(result.duration)
        bytesReceived = result.bytesReceived
        requests = result.requests
        events = result.events.map { event in
            let value: Double? =
                switch event.kind {
                case .bandwidth, .request, .downloadComplete, .rate: event.value
                default: event.value.map(s)
                }
            return Event(time: s(event.time), type: event.kind.rawValue, position: s(event.position), value: value)
        }
    }
}
