package import MediaIO
import PlaybackModel
import InputReading

/// What `CheckSession` knows about the input it is receiving: the variant and streams it plays, and the
/// byte counters and pacing of its reads (the figures are `CheckMachine`'s). Lives on the reading thread only.
package struct CheckReading {
    /// The opened input.
    package let input: MediaInput
    /// HLS variants as the report lists them.
    package let variants: [CheckReport.Variant]
    /// Streams received (the chosen variant's, or all); every other stream is discarded.
    package let kept: Set<Int>
    /// Whether every stream is received (no variant chosen), including streams the demuxer adds while
    /// reading; with a variant chosen, a stream added later is discarded.
    private let keepsEveryStream: Bool
    /// How many streams the input had when the discard flags were last set.
    private var streamCount: Int
    /// Streams the player plays: best video and best audio among `kept`.
    package let playable: [Int]
    /// Whether the input declares no duration (live).
    package let isLive: Bool
    /// Seconds to receive before stopping; `nil` for the whole stream.
    package let sampleLimit: Double?
    /// The declared bit rate and where it comes from (`variant` or `container`).
    package let declaredBitRate: (value: Int64, source: String)?
    /// Whether the input is read through the LL-HLS path (`LowLatencyPlayback`).
    package let playsParts: Bool

    private let isPlaylist: Bool
    private let isPaced: Bool
    private var payloadBytes: Int64 = 0
    private var byteEnd: Int64 = 0
    /// The end of the furthest packet handed over, in the input's bytes (`Packet.position + size`).
    private var deliveredEnd: Int64 = 0
    private var firstMediaTime: Double?
    private var deliveryStart: Double?

    /// Picks the variant and streams for `input`; read through `lowLatency` (LL-HLS parts), it is live whatever
    /// its container declares (the MP4 demuxer reads a duration from the first fragments).
    package init(input: MediaInput, settings: CheckSettings, source: String, playsParts: Bool = false) {
        self.input = input
        self.playsParts = playsParts
        let formatName = input.format.name
        // Playlist demuxers read other resources: the input's own byte counter sees only the playlist.
        isPlaylist = input.format.readsOtherResources
        isPaced = settings.rate != nil
        let candidates = isPlaylist ? Self.variants(of: input) : []
        let chosen = settings.variant.select(bandwidths: candidates.map(\.bandwidth))
        variants = candidates.enumerated().map { position, candidate in
            let infos = candidate.streams.compactMap { input.streams.indices.contains($0) ? input.streams[$0] : nil }
            let video = infos.first { $0.type == .video && !$0.isAttachedPicture }
            return CheckReport.Variant(
                index: position, bandwidth: candidate.bandwidth, width: video?.width, height: video?.height,
                codecs: infos.map(\.codec), streams: candidate.streams,
                selected: position == chosen, fetched: position == chosen || chosen == nil ? .all : .opening)
        }
        let keptStreams: [Int] = chosen.map { candidates[$0].streams } ?? input.streams.map(\.index)
        kept = Set(keptStreams)
        keepsEveryStream = chosen == nil
        streamCount = input.streams.count
        playable = PlaybackSession.playableStreams(from: input.streamCandidates(among: keptStreams))
        isLive = playsParts || input.format.duration == nil
        sampleLimit = settings.duration ?? (isLive ? CheckSettings.defaultLiveSample : nil)
        if let chosen, let bandwidth = candidates[chosen].bandwidth {
            declaredBitRate = (bandwidth, ContainerFormat(demuxer: formatName) == .hls ? "variant" : "representation")
        } else if let rate = input.format.bitRate, candidates.isEmpty {
            declaredBitRate = (rate, "container")
        } else {
            declaredBitRate = nil
        }
    }

    /// The variants a player chooses between, with the streams each one plays and its declared bandwidth.
    /// HLS: one program per variant (a media playlist is one program without a bandwidth: no choice).
    /// DASH: one program holding every representation, each with its own `@bandwidth`; a variant is one
    /// video representation plus the best audio one (audio alone when there is no video).
    private static func variants(of input: MediaInput) -> [(streams: [Int], bandwidth: Int64?)] {
        if input.format.container == .hls {
            let programs = input.programs.filter { !$0.streams.isEmpty }
            guard programs.contains(where: { ($0.declaredBitRate ?? 0) > 0 }) else { return [] }
            return programs.map { ($0.streams, $0.declaredBitRate.flatMap { $0 > 0 ? $0 : nil }) }
        }
        let rates = input.streamVariantBitRates
        let videos = input.streams.filter { $0.type == .video && !$0.isAttachedPicture }.map(\.index)
        let audios = input.streams.filter { $0.type == .audio }.map(\.index)
        let bestAudio = audios.max { (rates[$0] ?? 0) < (rates[$1] ?? 0) }
        let choices = videos.isEmpty ? audios : videos
        guard choices.count > 1 else { return [] }
        return choices.map { stream in
            let companion = videos.isEmpty ? nil : bestAudio
            let streams = [stream] + (companion.map { [$0] } ?? [])
            let bandwidth = rates[stream].map { $0 + (companion.flatMap { rates[$0] } ?? 0) }
            return (streams, bandwidth)
        }
    }

    /// Whether `packet` belongs to a received stream. A stream the demuxer added since the last packet is
    /// received when every stream is, else discarded from now on (it is no part of the chosen variant).
    package mutating func receives(_ packet: Packet) -> Bool {
        if input.streams.count != streamCount {
            streamCount = input.streams.count
            if !keepsEveryStream { input.discardAllStreams(except: kept) }
        }
        return keepsEveryStream || kept.contains(packet.stream)
    }

    /// Bytes received: the input's own count for a single resource, else the packets' payload (HLS/DASH,
    /// whose segments FFmpeg reads through I/O contexts of its own) or, for a paced local file, the bytes
    /// delivered so far.
    package var bytesReceived: Int64 {
        if isPaced { return byteEnd }
        if isPlaylist { return payloadBytes }
        return input.bytesRead ?? payloadBytes
    }

    /// Bytes the demuxer has handed over, for `--record-trace`: for a single resource, the byte offset
    /// just past the furthest packet (headers and the streams not played included, and not what the I/O
    /// buffer has read ahead: the player has not got that yet); for HLS/DASH, the packets' payload.
    package var bytesDelivered: Int64 {
        if isPlaylist { return payloadBytes }
        return max(deliveredEnd, payloadBytes)
    }

    /// When a paced local file may hand `packet` over (seconds since the start), or `nil` for at once.
    /// `now` is when it was read; the first packet's read time is where real-time pacing starts.
    package mutating func releaseTime(of packet: Packet, rate: ReadRate, now: Double) -> Double? {
        let time = packet.dts ?? packet.pts
        if deliveryStart == nil {
            deliveryStart = now
            firstMediaTime = time
        }
        let end = packet.position.map { $0 + Int64(packet.size) } ?? (byteEnd + Int64(packet.size))
        byteEnd = max(byteEnd, end)
        let offset = (time ?? 0) - (firstMediaTime ?? 0)
        return rate.releaseTime(mediaOffset: offset, firstDelivery: deliveryStart ?? now, byteEnd: byteEnd)
    }

    /// Counts `packet` in the byte counters.
    package mutating func count(_ packet: Packet) {
        payloadBytes += Int64(packet.size)
        if let position = packet.position { deliveredEnd = max(deliveredEnd, position + Int64(packet.size)) }
    }

    /// The input as it opened, for `CheckMachine` (`.opened`): `openBegan` and `limit` are the driver's.
    package func opened(openBegan: Double, limit: String?) -> CheckEvent.Opened {
        CheckEvent.Opened(
            openBegan: openBegan, format: playsParts ? "hls" : input.format.name, isHLS: input.format.container == .hls,
            variants: variants, playable: playable, isLive: isLive, duration: input.format.duration,
            startTime: input.format.startTime, sampleLimit: sampleLimit, declaredBitRate: declaredBitRate?.value,
            declaredBitRateSource: declaredBitRate?.source, limit: limit,
            tail: input.format.container.readsOtherResources
                ? nil : ContainerTail.sentence(source: input.url, formatName: input.format.name, size: input.format.size))
    }

    /// `packet` as the machine takes it, with the byte totals so far (`count(_:)` it first).
    package func event(for packet: Packet) -> CheckEvent.PacketRead {
        CheckEvent.PacketRead(
            stream: packet.stream, pts: packet.pts, dts: packet.dts, duration: packet.duration, size: packet.size,
            position: packet.position, keyframe: packet.isKeyframe, corrupt: packet.isCorrupt,
            video: playsParts ? input.bestVideoStream : nil, bytesReceived: bytesReceived, bytesDelivered: bytesDelivered)
    }
}
