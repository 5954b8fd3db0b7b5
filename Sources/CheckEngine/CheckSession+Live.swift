import Foundation
import MediaIO

extension CheckSession {
    /// For a remote live HLS input: reads the playlist the player will play (the input, or the variant
    /// `--variant` picks from a master) before FFmpeg does, so that the check starts where players start
    /// (`LiveStart`), and hands it to the latency watch (FFmpeg's own first read of the input is not seen).
    /// Returns the demuxer options that place the start (`live_start_index`); none for anything else, or
    /// when the playlist could not be read in `prereadBudget` (FFmpeg's open then says why, and starts
    /// three segments from the end).
    ///
    /// One more request than FFmpeg makes (two for a master), sent as the player's first (with `--cmcd`
    /// its keys): a player reads the playlist before its first segment too, but FFmpeg reads it again. The
    /// time counts in `open_time` and the startup delay. A playlist over `prereadBytes` is left to FFmpeg.
    ///
    /// A low-latency playlist (`LowLatencyPlayback.prepare`) is played part by part instead: `lowLatency` is
    /// set and no option returned (FFmpeg does not open the input).
    func liveStartOptions(lowLatency: inout LowLatencyPlayback?) -> [String: String] {
        guard InputKind(source).isNetwork, ContainerFormat(namedBy: source) == .hls else { return [:] }
        live.liveStart(settings.liveStart.description)
        let deadline = prereadDeadline()
        defer { deadline.finish() }
        let reader = deadline.interrupter
        let options = settings.formatOptions
        func load(_ requested: String, decoration: RequestDecoration? = nil) throws -> HLSPlaylist {
            try HLSPlaylist.load(
                location: decoration?.decorated(requested) ?? requested, options: decoration?.applied(to: options) ?? options,
                interrupter: reader, limit: Self.prereadBytes)
        }
        do {
            var url = source
            var playlist = try load(settings.requestURL(for: source))
            if playlist.kind == .master {
                let bandwidths = playlist.variants.map { Int64($0.bandwidth) as Int64? }
                guard let chosen = settings.variant.select(bandwidths: bandwidths) else { return [:] }
                url = HLSPlaylist.resolve(playlist.variants[chosen].uri, against: source)
                playlist = try load(url, decoration: cmcdRequests?.decoration(for: url))
            }
            lowLatency = lowLatencyPlayback(url: url, playlist: playlist)
            if lowLatency != nil { return [:] }
            guard playlist.kind == .media, !playlist.hasEndList, let start = settings.liveStart.start(in: playlist) else {
                return [:]
            }
            live.holdBack(applied: nil, target: start.target, rule: start.rule)
            live.playlistLoaded(playlist, url: url, at: now())
            return ["live_start_index": String(start.liveStartIndex)]
        } catch {
            return [:]
        }
    }

    /// The longest the reads before opening may take in all (the HLS playlist, the DASH manifest and its
    /// clock), seconds (at most `--timeout`).
    static let prereadBudget = 3.0
    /// The largest playlist read before opening, bytes: a live window of a few hundred segments.
    static let prereadBytes: Int64 = 1 << 20

    /// The interrupter of the reads bufprobe makes before FFmpeg opens the input (`liveStartOptions`,
    /// `prepareDASHLive`), under a deadline of `prereadBudget` (`VariantProber.RequestDeadline`, as every
    /// `--all-variants` request): its own, so that what it skips is not the player's; a child of the check's,
    /// so that a cancel stops it; sharing the check's pace and request policy. A body that trickles forever
    /// (64 KiB every 0.2 s) never trips the per-call `--timeout`; without the deadline the check would read it
    /// up to 16 MiB before FFmpeg even opens.
    func prereadDeadline() -> VariantProber.RequestDeadline {
        VariantProber.RequestDeadline(
            Interrupter(
                timeout: .bounded(seconds: settings.timeout), parent: interrupter, input: source,
                sharingPaceWith: interrupter, policy: settings.requestPolicy),
            seconds: min(settings.timeout, Self.prereadBudget))
    }

    /// A packet of a played stream of a live input was handed to the player at check time `time`, with the
    /// playhead then (`nil` before playback started): the first packet places the media on the clock, and
    /// every one samples the latency once playback has started.
    func noteLive(_ packet: Packet, playhead: Double?, at time: Double) {
        let media = packet.modelPacket
        guard let seconds = media.dts ?? media.pts else { return }
        live.packet(mediaTime: seconds)
        if dash.isActive { noteDASHLiveStart() }
        if let playhead { live.sample(at: time, playhead: playhead) }
    }
}
