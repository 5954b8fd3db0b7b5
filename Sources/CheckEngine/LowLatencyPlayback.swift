import Foundation
package import MediaIO
import Synchronization
import BufprobeOutput

/// `check`'s low-latency HLS path: when the input's media playlist has `EXT-X-PART-INF` and
/// `CAN-BLOCK-RELOAD=YES` (and `--no-low-latency` is not given), bufprobe plays the parts itself with a
/// `LowLatencyHLSClient` instead of letting FFmpeg play whole segments, and libavformat demuxes the parts from
/// memory (`MediaInput(streaming:...)`). This type wires the client's observations and the packets read
/// into a `LowLatencyMonitor` (the rules) and into the check's `LiveEdgeWatch` (anchors from each part's
/// program date-time against the media time of its first packet, the edge from each playlist load, the
/// hold-back applied at start), so the latency measured is the low-latency one.
package final class LowLatencyPlayback: Sendable {
    /// What the client's thread and the reading thread share.
    private final class Recorder: Sendable {
        /// The rules.
        let monitor: Mutex<LowLatencyMonitor>
        /// The last failed request's sentence (the one that stopped the client).
        let failure = Mutex<String?>(nil)
        /// The check's clock.
        let now: @Sendable () -> Double
        /// The check's latency watch.
        let feed: LiveEdgeWatch?
        /// The hold-back aimed at and its rule's name, for the latency watch.
        let target: (seconds: Double?, rule: String)

        /// A recorder for the media playlist `playlist`.
        init(playlist: String, now: @escaping @Sendable () -> Double, feed: LiveEdgeWatch?, target: (seconds: Double?, rule: String)) {
            monitor = Mutex(LowLatencyMonitor(playlist: playlist))
            self.now = now
            self.feed = feed
            self.target = target
        }

        /// Applies one of the client's observations (on its thread).
        func observe(_ observation: LowLatencyHLSClient.Observation) {
            switch observation {
            case .playlist(let url, let playlist, let began, let seconds, let asked):
                let at = began + seconds
                monitor.withLock { $0.loaded(playlist, url: url, at: at, seconds: seconds, asked: asked) }
                LowLatencyPlayback.feedEdge(of: playlist, to: feed, at: at)
            case .part(let part, let range, _, let wholeSegment):
                monitor.withLock { $0.appended(part, range: range, wholeSegment: wholeSegment) }
            case .started(_, let behindEdge):
                monitor.withLock { $0.started(behindEdge: behindEdge) }
                feed?.holdBack(applied: behindEdge, target: target.seconds, rule: target.rule)
            case .failed(let sentence):
                let at = now()
                monitor.withLock { $0.failed(sentence, at: at) }
                // The last one is what stopped the client.
                failure.withLock { $0 = sentence }
            }
        }
    }

    /// The media playlist played.
    package let playlist: String
    /// Fetches the parts.
    private let client: LowLatencyHLSClient
    /// What the client's thread and the reading thread share.
    private let recorder: Recorder
    /// The client's requests' interrupter (a child of the check's).
    private let requests: Interrupter
    /// The check's: the demuxer reading the parts is armed with it.
    private let readInterrupter: Interrupter
    /// Protocol and demuxer AVOptions.
    private let options: [String: String]
    /// The check's clock, seconds since it began.
    private let now: @Sendable () -> Double

    /// The LL-HLS path for the media playlist at `url` (read before opening, as `playlist`: the input's, or
    /// the variant `--variant` picks from its master), or `nil` when it does not apply: `--no-low-latency`, or
    /// a playlist without `EXT-X-PART-INF`, `CAN-BLOCK-RELOAD=YES` or parts, or ended.
    /// - Parameters:
    ///   - source: the check's input, whose protocol whitelist the client's requests follow.
    ///   - interrupter: the check's; the client's requests use a child of it (its policy, pace and timeout).
    ///   - now: the check's clock, seconds since it began.
    package static func prepare(
        url: String, playlist: HLSPlaylist, source: String, settings: CheckSettings, interrupter: Interrupter,
        now: @escaping @Sendable () -> Double, feed: LiveEdgeWatch?
    ) -> LowLatencyPlayback? {
        guard settings.lowLatency else { return nil }
        let requests = Interrupter(
            timeout: .bounded(seconds: settings.timeout), parent: interrupter, input: source, sharingPaceWith: interrupter,
            policy: settings.requestPolicy)
        let options = settings.formatOptions
        guard playlist.kind == .media, playlist.partTarget != nil, playlist.canBlockReload, !playlist.hasEndList,
            !playlist.allParts.isEmpty
        else { return nil }
        return try? LowLatencyPlayback(
            url: url, first: playlist, settings: settings, requests: requests, readInterrupter: interrupter, options: options,
            now: now, feed: feed)
    }

    /// Creates the client for `url` (whose first load is `first`) and records that load.
    private init(
        url: String, first: HLSPlaylist, settings: CheckSettings, requests: Interrupter, readInterrupter: Interrupter,
        options: [String: String], now: @escaping @Sendable () -> Double, feed: LiveEdgeWatch?
    ) throws(FFmpegError) {
        playlist = url
        self.requests = requests
        self.readInterrupter = readInterrupter
        self.options = options
        self.now = now
        let (holdBack, rule) = Self.start(settings.liveStart, in: first)
        let recorder = Recorder(playlist: url, now: now, feed: feed, target: (holdBack.isFinite ? holdBack : nil, rule))
        self.recorder = recorder
        client = try LowLatencyHLSClient(
            url: url, first: first, holdBack: holdBack, options: options, interrupter: requests,
            readInterrupter: readInterrupter, now: now, observe: { recorder.observe($0) })
        let at = now()
        recorder.monitor.withLock { $0.loaded(first, url: url, at: at, seconds: 0, asked: nil) }
        feed?.basis("program_date_time")
        Self.feedEdge(of: first, to: feed, at: at)
    }

    /// Starts the client and opens the parts it appends as the check's input.
    /// - Throws: `FFmpegError` from opening (the first parts never came, or are not media).
    package func openInput() throws(FFmpegError) -> MediaInput {
        client.start()
        return try MediaInput(streaming: client.stream, name: playlist, options: options, interrupter: readInterrupter)
    }

    /// A packet the check read (now): the `INDEPENDENT` rule and the latency anchors.
    package func received(_ packet: Packet, videoStream: Int?) {
        let at = now()
        let anchor = recorder.monitor.withLock { monitor in
            monitor.packet(
                position: packet.position, isVideo: packet.stream == videoStream, keyframe: packet.isKeyframe,
                mediaTime: packet.pts, anchorsOnVideo: videoStream != nil, at: at)
        }
        if let anchor { recorder.feed?.anchor(mediaTime: anchor.mediaTime, unixTime: anchor.unixTime) }
    }

    /// Stops the client (the request in flight is cancelled) and ends the stream. Safe to repeat; the end of
    /// the check (this object released with its reading) stops it too.
    package func stop() { client.stop() }

    deinit { client.stop() }

    /// Why reading stalled, when a part was still arriving: one sentence naming it (a part that never ends).
    package var stalledSentence: String? {
        guard let fetching = client.inFlight else { return nil }
        return "\(playlist) stopped playing: its part \(fetching.url) was still arriving \(TextFormat.seconds(now() - fetching.since)) after it was requested, and nothing after it could be played."
    }

    /// Why the client stopped before the check did (a request that failed), if it did.
    package var failure: String? { recorder.failure.withLock { $0 } }

    /// The `low_latency` section.
    package func report() -> CheckReport.LowLatencyReport {
        recorder.monitor.withLock { $0.finalReport }
    }

    /// How far behind the newest listed part `start` (`--live-start`) begins in `playlist`, and the rule's name:
    /// `PART-HOLD-BACK` by default (else `HOLD-BACK`, else three target durations, as `holdBack(playsParts:)`
    /// says), 0 for `edge`, the whole window (infinity: the oldest part) for `window-start`.
    static func start(_ start: LiveStart, in playlist: HLSPlaylist) -> (seconds: Double, rule: String) {
        switch start {
        case .holdBack: playlist.holdBack(playsParts: true) ?? (3 * (playlist.partTarget ?? 1), "3 x PART-TARGET")
        case .edge: (0, "--live-start edge")
        case .windowStart: (.infinity, "--live-start window-start")
        case .behind(let seconds): (seconds, "--live-start")
        }
    }

    /// Tells `feed` where `playlist`'s newest media ends and how much it lists (a delta update lists less).
    static func feedEdge(of playlist: HLSPlaylist, to feed: LiveEdgeWatch?, at: Double) {
        guard let feed else { return }
        if let edge = edge(of: playlist) { feed.edge(unixTime: edge, at: at) }
        if !playlist.isDeltaUpdate { feed.window(seconds: playlist.totalDuration + playlist.trailingParts.reduce(0) { $0 + $1.duration }) }
    }

    /// The program date-time at which the newest media `playlist` lists ends (Unix seconds).
    static func edge(of playlist: HLSPlaylist) -> Double? {
        if let part = playlist.trailingParts.last, let date = part.programDateTime { return date + part.duration }
        guard let segment = playlist.segments.last, let date = segment.programDateTime else { return nil }
        return date + segment.duration
    }
}
