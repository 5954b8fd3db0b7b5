import Foundation
package import MediaIO
import BufprobeOutput

/// `check`'s low-latency HLS path: when the input's media playlist has `EXT-X-PART-INF` and
/// `CAN-BLOCK-RELOAD=YES` (and `--no-low-latency` is not given), bufprobe plays the parts itself with a
/// `LowLatencyHLSClient` instead of letting FFmpeg play whole segments, and libavformat demuxes the parts from
/// memory (`MediaInput(streaming:...)`). This type is I/O only: it runs the client and hands each of its
/// observations to the check as a `CheckEvent` (`deliver`); the rules (`LowLatencyMonitor`, the latency's
/// anchors and edge) are `CheckMachine`'s.
package final class LowLatencyPlayback: Sendable {
    /// The media playlist played.
    package let playlist: String
    /// Fetches the parts.
    private let client: LowLatencyHLSClient
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
    ///   - now: the check's clock, seconds since it began; the client waits on the interrupter's clock.
    ///   - deliver: takes each of the client's observations as an event (on the client's thread).
    package static func prepare(
        url: String, playlist: HLSPlaylist, source: String, settings: CheckSettings, interrupter: Interrupter,
        now: @escaping @Sendable () -> Double, deliver: @escaping @Sendable (CheckEvent) -> Void
    ) -> LowLatencyPlayback? {
        guard settings.lowLatency else { return nil }
        let requests = Interrupter(
            timeout: .bounded(seconds: settings.timeout), parent: interrupter, input: source, sharingPaceWith: interrupter,
            policy: settings.requestPolicy)
        guard playlist.kind == .media, playlist.partTarget != nil, playlist.canBlockReload, !playlist.hasEndList,
            !playlist.allParts.isEmpty
        else { return nil }
        return try? LowLatencyPlayback(
            url: url, first: playlist, holdBack: start(settings.liveStart, in: playlist).seconds, requests: requests,
            readInterrupter: interrupter, options: settings.formatOptions, now: now, deliver: deliver)
    }

    /// Creates the client for `url` (whose first load is `first`).
    private init(
        url: String, first: HLSPlaylist, holdBack: Double, requests: Interrupter, readInterrupter: Interrupter,
        options: [String: String], now: @escaping @Sendable () -> Double,
        deliver: @escaping @Sendable (CheckEvent) -> Void
    ) throws(FFmpegError) {
        playlist = url
        self.readInterrupter = readInterrupter
        self.options = options
        self.now = now
        // The client waits on `requests`' clock (the check's) and alarm: a cancel, the end of the sample or
        // `stop()` ends its wait at once.
        client = try LowLatencyHLSClient(
            url: url, first: first, holdBack: holdBack, options: options, interrupter: requests,
            readInterrupter: readInterrupter, now: now, observe: { deliver(Self.event($0)) })
    }

    /// The client's observation as the check's event.
    static func event(_ observation: LowLatencyHLSClient.Observation) -> CheckEvent {
        switch observation {
        case .playlist(let url, let playlist, let began, let seconds, let asked):
            .partsReload(
                url: url, playlist: playlist, began: began, seconds: seconds,
                asked: asked.map { CheckEvent.PartRequest(sequence: $0.sequence, part: $0.part, skip: $0.skip) })
        case .part(let part, let range, _, let wholeSegment):
            .part(part, start: range.lowerBound, end: range.upperBound, wholeSegment: wholeSegment)
        case .started(_, let behindEdge):
            .partsStarted(behindEdge: behindEdge)
        case .failed(let sentence):
            .partsFailed(sentence)
        }
    }

    /// Starts the client and opens the parts it appends as the check's input.
    /// - Throws: `FFmpegError` from opening (the first parts never came, or are not media).
    package func openInput() throws(FFmpegError) -> MediaInput {
        client.start()
        return try MediaInput(streaming: client.stream, name: playlist, options: options, interrupter: readInterrupter)
    }

    /// Stops the client (the request in flight is cancelled, its wait ends) and ends the stream. Safe to
    /// repeat; the end of the check (`finish()`, or this object released with its reading) stops it too.
    package func stop() { client.stop() }

    /// Stops the client and waits until its thread has returned: no wait of it is left once the check ends.
    package func finish() {
        client.stop()
        client.join()
    }

    deinit { finish() }

    /// Why reading stalled, when a part was still arriving: one sentence naming it (a part that never ends).
    package var stalledSentence: String? {
        guard let fetching = client.inFlight else { return nil }
        return "\(playlist) stopped playing: its part \(fetching.url) was still arriving \(TextFormat.seconds(now() - fetching.since)) after it was requested, and nothing after it could be played."
    }

    /// How far behind the newest listed part `start` (`--live-start`) begins in `playlist`, and the rule's name
    /// (`LiveStart.target(in:playsParts:)`; without a hold-back in the playlist, three part targets).
    static func start(_ start: LiveStart, in playlist: HLSPlaylist) -> (seconds: Double, rule: String) {
        start.target(in: playlist, playsParts: true) ?? (3 * (playlist.partTarget ?? 1), "3 x PART-TARGET")
    }

    /// Tells `feed` where `playlist`'s newest media ends and how much it lists (a delta update lists less).
    static func feedEdge(of playlist: HLSPlaylist, to feed: inout LiveEdgeState, at: Double) {
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
