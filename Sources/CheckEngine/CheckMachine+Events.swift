import BufprobeOutput
package import MediaIO
import PlaybackModel
import Logging
import InputReading

extension CheckMachine {
    /// Takes one observation made at `at` (seconds since the check began) and returns what the driver does
    /// next (only the driver's own events, `.opened`, `.packet` and `.advanced`, ask for an answer; the rest
    /// may come from any thread and their answer is not needed).
    @discardableResult
    package mutating func handle(_ event: CheckEvent, at: Double) -> Action {
        events?.append(CheckEvent.Timed(at: at, event))
        switch event {
        case .began(let unixTime):
            live.unixAtStart = unixTime
        case .ffmpeg(let level, let text):
            lines.record(FFmpegLogLine(level: Logger.Level(rawValue: level) ?? .info, line: text))
        case .playlistLoaded(let url, let text):
            if let playlist = playlists.load(url: url, bytes: Array(text.utf8), at: at) {
                live.playlistLoaded(playlist, url: url, at: at)
            }
        case .livePlaylistRead(let url, let playlist):
            if let start = settings.liveStart.start(in: playlist) {
                live.holdBack(applied: nil, target: start.target, rule: start.rule)
            }
            live.playlistLoaded(playlist, url: url, at: at)
        case .resourceOpened(let url):
            live.segmentOpened(url: url)
        case .requestOpened(let latency):
            requestOpened(at: at, latency: latency)
        case .dashManifest(let read):
            startDASHLive(read, at: at)
        case .dashRequests(let entries, let dropped):
            dash?.requests += entries
            dash?.dropped = dropped
        case .partsPlaylist(let url, let playlist):
            startParts(url: url, first: playlist, at: at)
        case .partsReload(let url, let playlist, let began, let seconds, let asked):
            let loaded = began + seconds
            let request = asked.map { LowLatencyHLSClient.Request(sequence: $0.sequence, part: $0.part, skip: $0.skip) }
            parts?.monitor.loaded(playlist, url: url, at: loaded, seconds: seconds, asked: request)
            if parts != nil { LowLatencyPlayback.feedEdge(of: playlist, to: &live, at: loaded) }
        case .part(let part, let start, let end, let wholeSegment):
            parts?.monitor.appended(part, range: start..<end, wholeSegment: wholeSegment)
        case .partsStarted(let behindEdge):
            guard let target = parts?.target else { break }
            parts?.monitor.started(behindEdge: behindEdge)
            live.holdBack(applied: behindEdge, target: target.seconds, rule: target.rule)
        case .partsFailed(let sentence):
            parts?.monitor.failed(sentence, at: at)
            // The last one is what stopped the client.
            parts?.failure = sentence
        case .opened(let opened):
            return openInput(opened, at: at)
        case .packet(let packet):
            return receive(packet, at: at)
        case .advanced:
            let action = advance(to: at)
            observeForCMCD()
            return action
        case .failed(let sentence, let requests):
            report.sampledDuration = JSONOutput.seconds(at)
            fail(sentence, requests: requests)
        case .openFailed(let error, let requests):
            openFailed(error, requests: requests, at: at)
        case .ended(let how, let requests):
            conclude(how, requests: requests, at: at)
        case .variantsValidated(let checks, let warnings):
            guard report.variantChecks == nil else { break }
            report.variantChecks = checks
            report.warnings += warnings + checks.flatMap { $0.problems.map(\.message) }
        case .closed(let refused, let interrupted):
            close(refused: refused, interrupted: interrupted, at: at)
        }
        return next(now: at)
    }

    /// The input opened: the report's description of it, the checks that end the check before receiving
    /// (a `--variant` that names none, nothing playable), else the player created.
    private mutating func openInput(_ opened: CheckEvent.Opened, at: Double) -> Action {
        input = opened
        report.openTime = JSONOutput.seconds(at - opened.openBegan)
        report.format = opened.format
        segmentsFailedWhileOpening = lines.failedSegments.count
        report.variants = opened.variants
        report.playableStreams = opened.playable
        report.live = opened.isLive
        report.duration = declared.map { JSONOutput.seconds($0.duration) }
        report.settings.sampleLimit = opened.sampleLimit
        if case .index(let position) = settings.variant, !opened.variants.isEmpty,
            !opened.variants.contains(where: \.selected)
        {
            report.sampledDuration = JSONOutput.seconds(at)
            let count = opened.variants.count
            failBeforeReceiving("\(source) has \(count) variants (0-\(count - 1)), so --variant \(position) names none of them.")
            return next(now: at)
        }
        if opened.playable.isEmpty {
            report.sampledDuration = JSONOutput.seconds(at)
            if let limit = opened.limit {
                failBeforeReceiving(limit)
            } else if let http = lines.httpErrors.last, let url = http.url {
                failBeforeReceiving("\(source) could not be opened: \(url) answered HTTP \(http.status)\(http.text.isEmpty ? "" : " \(http.text)"), and nothing playable is left.")
            } else {
                failBeforeReceiving("\(source) has no audio or video stream a player could play.")
            }
            return next(now: at)
        }
        playlists.openingFinished()
        let media = Opened(
            playableStreams: opened.playable, duration: opened.isLive ? .unbounded : .finite(opened.duration ?? 0),
            mediaStart: opened.startTime ?? 0, sampleLimit: opened.sampleLimit)
        return self.opened(media, now: at)
    }

    /// Where the input declares it ends (media time) and its declared duration; `nil` for live.
    var declared: TruncationRule.Declared? {
        guard let input, !input.isLive else { return nil }
        return input.duration.map { TruncationRule.Declared(start: input.startTime, duration: $0) }
    }

    /// A packet was handed to the player: the LL-HLS rules, the tallies, the player, the live latency.
    private mutating func receive(_ packet: CheckEvent.PacketRead, at: Double) -> Action {
        if var parts {
            // The part's first packet of the video stream (else of any) anchors the part's program date-time.
            let anchor = parts.monitor.packet(
                position: packet.position, isVideo: packet.video == packet.stream, keyframe: packet.keyframe,
                mediaTime: packet.pts, anchorsOnVideo: packet.video != nil, at: at)
            if let anchor { live.anchor(mediaTime: anchor.mediaTime, unixTime: anchor.unixTime) }
            self.parts = parts
        }
        tally.count(size: packet.size, pts: packet.pts, dts: packet.dts, duration: packet.duration)
        let media = MediaPacket(
            stream: packet.stream, pts: packet.pts, dts: packet.dts, duration: packet.duration, size: packet.size,
            position: packet.position, isKeyframe: packet.keyframe)
        let action = received(
            media, corrupt: packet.corrupt, bytesReceived: packet.bytesReceived, bytesDelivered: packet.bytesDelivered, now: at)
        if input?.isLive == true, let seconds = packet.dts ?? packet.pts {
            live.packet(mediaTime: seconds)
            if dash != nil { noteDASHLiveStart() }
            // A live input's latency reads the playhead once playback started.
            if let player = session?.player, player.report.started { live.sample(at: at, playhead: player.item.currentTime) }
        }
        observeForCMCD()
        return action
    }

    /// Tells `--cmcd`'s per-request keys the player's state: buffer ahead, starting up or stalled, and the
    /// played variant's declared bit rate.
    private mutating func observeForCMCD() {
        guard cmcd != nil else { return }
        var buffered = 0.0
        var startingUp = true
        if let player = session?.player {
            buffered = player.item.bufferedAhead
            startingUp = switch player.state {
            case .loading, .stalled: true
            case .playing, .paused, .seeking, .ended, .failed: false
            }
        }
        cmcd?.observe(bufferedAhead: buffered, startingUp: startingUp, bitRate: input?.declaredBitRate.flatMap { Int(exactly: $0) })
    }

    /// What `--cmcd` adds to a request of `url` now (`nil` without `--cmcd`).
    package func cmcdDecoration(for url: String) -> RequestDecoration? { cmcd?.decoration(for: url) }
}
