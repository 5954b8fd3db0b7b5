import Foundation
import MediaIO
import BufprobeOutput
import InputReading

extension OpeningReads {
    /// What the reads before opening give FFmpeg's open.
    struct BeforeOpening {
        /// Demuxer options that place a live start (`live_start_index`).
        var options: [String: String] = [:]
        /// The input's first read, handed to FFmpeg's demuxer (`MediaInput`'s `prefetched`).
        var input: PrefetchedInput?
        /// The sentence the check fails with before opening (a playlist too large to read).
        var refusal: String?
    }

    /// For a remote HLS input: reads the input playlist itself and hands it to FFmpeg as its first read
    /// (`PrefetchedInput`: requested once, and a live media playlist longer than
    /// `ResourceLimits.liveSegments` windowed before FFmpeg parses it, as every reload is), within
    /// `--timeout` and `ResourceLimits.playlistBytes` as FFmpeg's own open would be; a larger playlist is
    /// refused with a sentence, and so is an input that did not answer the request within `--timeout`
    /// (`unansweredInput`). From the playlist the player will play (the input, or the variant
    /// `--variant` picks from a master, read once more within `prereadBudget`), the check starts where
    /// players start (`LiveStart`) and the latency watch gets its first load. When the input could not be
    /// read, FFmpeg opens it as before (its open then says why, and a live start is three segments from
    /// the end).
    ///
    /// The first request is the player's (with `--cmcd` its keys); for a master, the variant's read is one
    /// more request than FFmpeg makes (FFmpeg reads it again). The time counts in `open_time` and the startup
    /// delay.
    ///
    /// A low-latency playlist (`LowLatencyPlayback.prepare`) is played part by part instead: `lowLatency` is
    /// set and no option returned (FFmpeg does not open the input).
    func readBeforeOpening(lowLatency: inout LowLatencyPlayback?) -> BeforeOpening {
        guard InputKind(source).isNetwork, ContainerFormat(namedBy: source) == .hls else { return BeforeOpening() }
        let options = settings.formatOptions
        var result = BeforeOpening()
        let input: PrefetchedInput
        // The player's first request: bounded as FFmpeg's open of it was, by the whole --timeout.
        let deadline = prereadDeadline(seconds: settings.timeout)
        do {
            defer { deadline.finish() }
            let began = timing?.now()
            input = try PrefetchedInput.read(
                url: InputKind.ffmpegURL(for: settings.requestURL(for: source)), demuxer: "hls", options: options,
                interrupter: deadline.interrupter,
                opened: { if let timing, let began { timing.opened(began, timing.now() - began) } })
        } catch let tooLarge as PrefetchedInput.TooLarge {
            result.refusal = CheckSentence.tooLarge(tooLarge, source: source)
            return result
        } catch {
            result.refusal = unansweredInput(error, deadline: deadline)
            return result
        }
        result.input = input
        // Not a playlist bufprobe reads: FFmpeg's HLS demuxer says what it makes of it.
        guard let playlist = try? HLSPlaylist.parse(String(decoding: input.bytes, as: UTF8.self)) else { return result }
        var url = input.location
        var played = playlist
        if playlist.kind == .master {
            let deadline = prereadDeadline()
            defer { deadline.finish() }
            let bandwidths = playlist.variants.map { Int64($0.bandwidth) as Int64? }
            guard let chosen = settings.variant.select(bandwidths: bandwidths) else { return result }
            url = HLSPlaylist.resolve(playlist.variants[chosen].uri, against: input.location)
            let decoration = decorate?(url)
            guard let variant = try? HLSPlaylist.load(
                location: decoration?.decorated(url) ?? url, options: decoration?.applied(to: options) ?? options,
                interrupter: deadline.interrupter, limit: Self.prereadBytes)
            else { return result }
            played = variant
        }
        lowLatency = LowLatencyPlayback.prepare(
            url: url, playlist: played, source: source, settings: settings, interrupter: interrupter,
            now: now, deliver: deliver)
        // Played part by part: FFmpeg does not open the input.
        if lowLatency != nil {
            deliver(.partsPlaylist(url: url, playlist: played))
            return BeforeOpening()
        }
        guard played.kind == .media, !played.hasEndList, let start = settings.liveStart.start(in: played) else {
            return result
        }
        deliver(.livePlaylistRead(url: url, playlist: played))
        result.options = ["live_start_index": String(start.liveStartIndex)]
        return result
    }
}
