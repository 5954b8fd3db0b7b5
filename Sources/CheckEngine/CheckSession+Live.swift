import Foundation
import MediaIO

extension CheckSession {
    /// For a remote live HLS input: reads the playlist the player will play (the input, or the variant
    /// `--variant` picks from a master) before FFmpeg does, so that the check starts where players start
    /// (`LiveStart`), and hands it to the latency watch (FFmpeg's own first read of the input is not seen).
    /// Returns the demuxer options that place the start (`live_start_index`); none for anything else, or
    /// when the playlist could not be read (FFmpeg's open then says why).
    ///
    /// One more request than FFmpeg makes (two for a master): a player reads the playlist before its first
    /// segment too, but FFmpeg reads it again; the time counts in `open_time` and the startup delay.
    func liveStartOptions() -> [String: String] {
        guard InputKind(source).isNetwork, ContainerFormat(namedBy: source) == .hls else { return [:] }
        live.liveStart(settings.liveStart.description)
        // Its own interrupter: what it skips is not the player's, and a cancel of the check still stops it.
        let reader = Interrupter(
            timeout: .bounded(seconds: settings.timeout), parent: interrupter, input: source, sharingPaceWith: interrupter,
            policy: settings.requestPolicy)
        let options = settings.formatOptions
        do {
            var url = source
            var playlist = try HLSPlaylist.load(location: url, options: options, interrupter: reader)
            if playlist.kind == .master {
                let bandwidths = playlist.variants.map { Int64($0.bandwidth) as Int64? }
                guard let chosen = settings.variant.select(bandwidths: bandwidths) else { return [:] }
                url = HLSPlaylist.resolve(playlist.variants[chosen].uri, against: source)
                playlist = try HLSPlaylist.load(location: url, options: options, interrupter: reader)
            }
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

    /// A packet of a played stream was handed to the player at check time `time`: the first places the
    /// media on the clock, and every one samples the latency once playback has started.
    func noteLive(_ packet: Packet, at time: Double) {
        let media = packet.modelPacket
        guard let seconds = media.dts ?? media.pts else { return }
        live.packet(mediaTime: seconds)
        if dash.isActive { noteDASHLiveStart() }
        let playhead: Double? = machine.withLock { machine in
            guard let player = machine.session?.player, player.report.started else { return nil }
            return player.item.currentTime
        }
        if let playhead { live.sample(at: time, playhead: playhead) }
    }
}
