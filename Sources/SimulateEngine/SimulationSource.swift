import Foundation
import MediaIO
package import PlaybackModel
import BufprobeOutput
import InputReading

/// The media to simulate, loaded into the plain values the engine takes: a file's packets read through
/// MediaIO, an HLS rendition's segment sizes from disk, or synthetic packets.
package struct SimulationSource: Sendable {
    /// What was loaded, for reports: a path, a playlist (with the variant) or a synthetic description.
    package var description: String
    /// `file` (local), `network` (a URL), `hls`, `dash` or `synthetic`.
    package var kind: String
    /// The units to download.
    package var media: SimulationMedia
    /// A sentence for stderr about how the file will download, when worth saying (index at the end).
    package var warning: String?
    /// The duration the container declares, seconds, when it declares one (a file read by libavformat).
    package var declaredDuration: Double?
    /// Why the media read stops short of what the input declares (`TruncationRule`'s sentence, or the read
    /// error that ended reading): the simulation plays what was read, and the command says so.
    package var shortfall: String?
    /// Every variant of a master playlist, loaded for `--abr` (then `media` is its lowest variant).
    package var ladder: SimulationLadder?
    /// What a DASH manifest or HLS playlists tell a player's start rule (`PlayerProfile.policy(for:)`,
    /// `PlayerProfile.startDelay(hints:network:)`).
    package var manifestHints: PlayerPreset.ManifestHints?
    /// The separate audio track a player fetches beside the video (`SimulationSource+Audio`), if any.
    package var audio: SimulationMedia?
    /// What `audio` is, for reports.
    package var audioDescription: String?
    /// The simulation started beside the reading, when `load` was asked for one and could start it.
    package var runAhead: SimulationRunAhead?

    /// Why media could not be loaded; `isUsage` separates script mistakes (exit 64) from unreadable
    /// media (exit 2).
    package struct Failure: Error, Sendable {
        /// One sentence naming the input.
        package var sentence: String
        /// Whether the mistake is in how bufprobe was called rather than in the media.
        package var isUsage: Bool
    }

    /// Synthetic media: `bitsPerSecond` for `duration` seconds, optional VBR variation from `seed`.
    package static func synthetic(bitsPerSecond: Double, duration: Double, variation: Double, seed: UInt64)
        -> SimulationSource
    {
        let synthetic = SyntheticMedia(bitsPerSecond: bitsPerSecond, duration: duration, variation: variation, seed: seed)
        var description = "synthetic \(BitRate(bitsPerSecond: bitsPerSecond).description) for \(Seconds(duration).description)"
        if variation > 0 { description += ", variation \(variation), seed \(seed)" }
        return SimulationSource(
            description: description, kind: "synthetic",
            media: .synthetic(synthetic))
    }

    /// Whether `input` is a local HLS master playlist or DASH manifest: variants a rule can choose from.
    package static func offersVariants(_ input: String) -> Bool {
        guard let path = InputKind(input).localPath else { return false }
        if DASHManifest.isManifest(path: path) { return true }
        guard HLSPlaylist.isPlaylist(path: path), let playlist = try? HLSPlaylist.load(path: path) else { return false }
        return playlist.kind == .master && !playlist.variants.isEmpty
    }

    /// A local file or URL libavformat opens (read completely, as fast as possible), a local HLS
    /// playlist (a master playlist's `variant`-th rendition, 0 by default), or a local DASH manifest (its
    /// `variant`-th video representation).
    /// With `adaptive`, `input` must be a local master playlist or DASH manifest and every variant is
    /// loaded (`ladder`).
    /// A file whose index follows the media is fetched as `download` says (`DownloadMode`).
    ///
    /// With `runAhead`, a single file's simulation starts beside the reading, with the engine `runAhead`
    /// builds for the source it is given (`SimulationRunAhead`; `runAhead` on the source returned).
    package static func load(
        _ input: String, variant: Int?, adaptive: Bool = false, download: DownloadMode = .ranges,
        runAhead: (@Sendable (SimulationSource) -> SimulationEngine)? = nil
    ) throws(Failure) -> SimulationSource {
        if let path = InputKind(input).localPath, HLSPlaylist.isPlaylist(path: path) {
            return adaptive ? try ladder(path) : try playlist(path, variant: variant)
        }
        if let path = InputKind(input).localPath, DASHManifest.isManifest(path: path) {
            return try dash(path, variant: variant, adaptive: adaptive)
        }
        if InputCheck.isURL(input), let adaptive = ContainerFormat(namedBy: input) {
            let (kind, local) = adaptive == .dash ? ("DASH manifest", "manifests") : ("HLS playlist", "playlists")
            throw Failure(
                sentence: "\(input) is a remote \(kind): simulate reads local \(local) and their segments (download them first).",
                isUsage: true)
        }
        if adaptive {
            throw Failure(
                sentence: "--abr applies to local HLS master playlists and DASH manifests; \(input) is neither.", isUsage: true)
        }
        if variant != nil {
            throw Failure(
                sentence: "--variant applies to HLS master playlists and DASH manifests; \(input) is neither.", isUsage: true)
        }
        if let problem = InputCheck.problem(with: input) { throw Failure(sentence: problem, isUsage: false) }
        // The packet loop's allocator setting, as probe's (`PacketAllocator`).
        PacketAllocator.tune()
        let opened: MediaInput
        do {
            opened = try MediaInput(url: InputKind.ffmpegURL(for: input))
        } catch {
            throw Failure(sentence: error.sentence(for: input), isUsage: false)
        }
        if let problem = InputCheck.problem(with: input, formatName: opened.format.name) {
            throw Failure(sentence: problem, isUsage: false)
        }
        // Packets go straight into the media's units: a long file is never held twice (but for a run
        // beside the reading, whose buffer holds the units once more while it reads).
        let declared = opened.streams.reduce(0) { total, stream in
            // Each figure comes from the file: bounded before adding, so no sum can overflow.
            min(total + Int(min(max(stream.declaredFrames ?? 0, 0), 20_000_000)), 20_000_000)
        }
        let description = input
        let kind = InputKind(input).isNetwork ? "network" : "file"
        // The box headers when the file is local (as probe reads them), else what the packets show.
        let boxes = IndexAtEnd.boxes(path: InputKind(input).localPath, formatName: opened.format.name)
        let ahead = runAhead.flatMap { makeEngine in
            SimulationRunAhead.start(
                opened, description: description, kind: kind, boxes: boxes, download: download, makeEngine: makeEngine)
        }
        // A run waiting for units that will not come ends, whatever ends the reading.
        defer { ahead?.feed.close() }
        // The units are built on a second thread, a batch of packets behind the demuxer (as probe's analysis).
        let worker = PacketWorker(
            consumer: SimulationPacketLoad(
                builder: SimulationMedia.ProgressiveBuilder(expectedCount: declared), feed: ahead?.feed),
            converter: opened.makePacketConverter())
        var batch = worker.firstBatch()
        var knownStreams = opened.streams.count
        var readError: FFmpegError?
        while true {
            let packet: RawPacket?
            do { packet = try opened.readRawPacket() } catch {
                readError = error
                break
            }
            guard let packet else { break }
            // The demuxer may add a stream while reading; the input's list has it by now.
            if knownStreams < opened.streams.count {
                batch.newStreams += opened.streams[knownStreams...]
                knownStreams = opened.streams.count
            }
            batch.append(packet)
            if batch.isFull { batch = worker.submit(batch) }
        }
        let load = worker.finish(batch)
        // The last partial batch goes to the run now, while the media is finished below (the `defer`
        // closes it on the paths that throw).
        ahead?.feed.close()
        let extent = load.extent
        let builder = load.builder
        // The builder's units must be held once only, so that `finish` writes them in place.
        _ = consume load
        // A damaged tail still leaves the packets before it: simulate what a player would get.
        if let readError, extent.packets == 0 {
            throw Failure(sentence: readError.sentence(for: input, opening: false), isUsage: false)
        }
        let playable = PlaybackSession.playableStreams(from: opened.streamCandidates())
        guard extent.packets > 0, builder.count > 0, !playable.isEmpty else {
            throw Failure(sentence: "\(input) holds no audio or video packets to play.", isUsage: false)
        }
        let index: (offset: Int64, size: Int64)?
        if let boxes {
            index = IndexAtEnd.fromBoxes(boxes)
        } else {
            index = indexAtEnd(extent, formatName: opened.format.name, size: opened.format.size)
        }
        var source = SimulationSource(
            // A URL is not a file, though it is read whole first like one: label it by where it came from.
            description: description, kind: kind,
            media: (consume builder).finish(
                playableStreams: playable, totalBytes: opened.format.size, duration: opened.format.duration,
                download: .progressive(indexAtEnd: index, mode: download)))
        if index != nil {
            let fix = "make it faststart: ffmpeg -i \(TextFormat.shellQuoted(input)) -c copy -movflags +faststart out.mp4"
            switch download {
            case .sequential:
                source.warning =
                    "\(input) has its index (moov) after the media: a plain sequential download plays nothing until the whole file is in (\(fix))."
            case .ranges:
                source.warning =
                    "\(input) has its index (moov) after the media: fetched by range requests as players do (the head, the index, then the media: three latencies and the index first; \(fix))."
            }
        }
        source.declaredDuration = opened.format.duration
        if let declared = opened.format.duration {
            let span = TruncationRule.Declared(start: opened.format.startTime, duration: declared)
            if case .truncated = TruncationRule.judge(span, receivedEnd: source.media.endTime) {
                // The playable media, as the report's duration and check's sentence count it.
                source.shortfall = TruncationRule.sentence(source: input, declared: declared, read: source.media.duration)
            }
        }
        // A damaged tail with no declared end to measure against: the read error says what stopped it (as
        // probe's report does).
        if source.shortfall == nil, let readError { source.shortfall = readError.sentence(for: input, opening: false) }
        // A container whose tail is cut where FFmpeg ends it like a whole file (MPEG-TS, Ogg, MP3): the
        // same sentence as probe's and check's.
        if source.shortfall == nil, !opened.format.container.readsOtherResources {
            source.shortfall = ContainerTail.sentence(source: input, formatName: opened.format.name, size: opened.format.size)
        }
        source.runAhead = ahead
        return source
    }

    /// Where a file's packets lie in its bytes: the first packet's start and the last byte any packet
    /// reaches, `nil` once a packet has no position.
    struct ByteExtent {
        var packets = 0
        var first: Int64? = .max
        var last: Int64 = 0

        mutating func add(_ packet: MediaPacket) {
            packets += 1
            guard let position = packet.position, let known = first else {
                first = nil
                return
            }
            first = min(known, position)
            last = max(last, position + Int64(packet.size))
        }
    }

    /// An MP4/MOV index that follows the media, when the packets show one (inputs whose box headers
    /// cannot be read): more bytes after the last packet than before the first (a front `moov` comes
    /// before the media; `moov` at the end after it; fragmented files keep only a small `mfra` there),
    /// taken as the index from the last packet's end to the end of the file.
    static func indexAtEnd(_ extent: ByteExtent, formatName: String, size: Int64?) -> (offset: Int64, size: Int64)? {
        guard ContainerFormat(demuxer: formatName).isMP4Family, let size, let first = extent.first else {
            return nil
        }
        let trailing = size - extent.last
        return trailing > 0 && trailing > first ? (extent.last, trailing) : nil
    }

    /// The most bytes a playlist's segments may add up to (1 PiB): byte ranges come from the playlist, and
    /// larger sums would overflow the simulated byte offsets.
    static let maximumPlaylistBytes: Int64 = 1 << 50

    /// Refuses segment sizes no real playlist has, before they are summed.
    static func checkSizes(_ sizes: [Int64], of path: String) throws(Failure) {
        var total: Int64 = 0
        for size in sizes {
            guard size <= maximumPlaylistBytes - total else {
                throw Failure(
                    sentence: "\(path) lists segments of more than 1 PiB in total (its byte ranges are not real): fix the playlist.",
                    isUsage: false)
            }
            total += size
        }
    }

    /// Every variant of the master playlist at `path`: declared bit rates, segment sizes read from disk,
    /// the segment timeline of the variant listed first.
    private static func ladder(_ path: String) throws(Failure) -> SimulationSource {
        let master: HLSPlaylist
        do {
            master = try HLSPlaylist.load(path: path)
        } catch {
            throw Failure(sentence: error.description, isUsage: false)
        }
        guard master.kind == .master, !master.variants.isEmpty else {
            throw Failure(
                sentence: "\(path) is a media playlist: --abr needs a master playlist that lists variants.", isUsage: true)
        }
        var variants: [SimulationLadder.Variant] = []
        var durations: [Double] = []
        var mediaPaths: [String] = []
        for (label, listed) in master.variants.enumerated() {
            guard !InputCheck.isURL(listed.uri) else {
                throw Failure(
                    sentence: "\(path) lists variant \(label) at \(listed.uri), a URL: simulate reads local playlists only.",
                    isUsage: false)
            }
            let mediaPath = HLSPlaylist.resolve(listed.uri, against: path)
            mediaPaths.append(mediaPath)
            let playlist: HLSPlaylist
            let sizes: [Int64]
            let initialization: Int64
            do {
                playlist = try HLSPlaylist.load(path: mediaPath)
                guard playlist.kind == .media, !playlist.segments.isEmpty else {
                    throw Failure(sentence: "\(mediaPath) (variant \(label) of \(path)) lists no segments.", isUsage: false)
                }
                sizes = try playlist.segmentSizes(playlistPath: mediaPath, separatingInitialization: true)
                initialization = try playlist.initializationSize(playlistPath: mediaPath)
                try checkSizes(sizes + [initialization], of: mediaPath)
            } catch let failure as Failure {
                throw failure
            } catch {
                throw Failure(sentence: "\(error)", isUsage: false)
            }
            if durations.isEmpty { durations = playlist.segments.map(\.duration) }
            variants.append(
                SimulationLadder.Variant(
                    label: label, bitRate: Double(max(listed.bandwidth, 0)), segmentBytes: sizes,
                    initializationBytes: initialization))
        }
        var source = try adaptiveSource(path, kind: "hls", variants: variants, durations: durations)
        source.manifestHints = playlistHints(master: path, media: mediaPaths)
        if let audio = try hlsAudio(masterPath: path, group: master.variants[0].audioGroup) {
            source.audio = audio.0
            source.audioDescription = audio.1
        }
        return source
    }

    /// The source over a ladder of `variants`, with the timeline of the one listed first.
    static func adaptiveSource(
        _ path: String, kind: String, variants: [SimulationLadder.Variant], durations: [Double]
    ) throws(Failure) -> SimulationSource {
        let ladder: SimulationLadder
        do {
            ladder = try SimulationLadder(variants: variants, durations: durations)
        } catch {
            switch error {
            case .empty: throw Failure(sentence: "\(path) lists no variant with segments.", isUsage: false)
            case .misaligned(let label, let segments, let expected):
                throw Failure(
                    sentence: "\(path): variant \(label) lists \(segments) segments where variant 0 lists \(expected); --abr needs aligned variants (simulate one with --variant).",
                    isUsage: false)
            }
        }
        let rates = ladder.bitRates.map { BitRate(bitsPerSecond: $0).description }.joined(separator: ", ")
        var source = SimulationSource(
            description: "\(path) (\(ladder.variants.count) variants: \(rates))", kind: kind, media: ladder.media(variant: 0))
        source.ladder = ladder
        return source
    }

    private static func playlist(_ path: String, variant: Int?) throws(Failure) -> SimulationSource {
        var playlist: HLSPlaylist
        do {
            playlist = try HLSPlaylist.load(path: path)
        } catch {
            throw Failure(sentence: error.description, isUsage: false)
        }
        var mediaPath = path
        var description = path
        var audioGroup: String?
        if playlist.kind == .master {
            let index = variant ?? 0
            guard playlist.variants.indices.contains(index) else {
                throw Failure(
                    sentence: "\(path) has \(playlist.variants.count) variants (0 to \(playlist.variants.count - 1)); --variant \(index) is not one of them.",
                    isUsage: true)
            }
            let chosen = playlist.variants[index]
            audioGroup = chosen.audioGroup
            guard !InputCheck.isURL(chosen.uri) else {
                throw Failure(
                    sentence: "\(path) lists variant \(index) at \(chosen.uri), a URL: simulate reads local playlists only.",
                    isUsage: false)
            }
            mediaPath = HLSPlaylist.resolve(chosen.uri, against: path)
            description = "\(path) variant \(index) (\(BitRate(bitsPerSecond: Double(chosen.bandwidth)).description))"
            do {
                playlist = try HLSPlaylist.load(path: mediaPath)
            } catch {
                throw Failure(sentence: error.description, isUsage: false)
            }
            guard playlist.kind == .media else {
                throw Failure(sentence: "\(mediaPath) is a master playlist where a media playlist was expected.", isUsage: false)
            }
        } else if variant != nil {
            throw Failure(sentence: "\(path) is a media playlist; --variant applies to master playlists only.", isUsage: true)
        }
        guard !playlist.segments.isEmpty else {
            throw Failure(sentence: "\(mediaPath) lists no segments.", isUsage: false)
        }
        let sizes: [Int64]
        let initialization: Int64
        do {
            sizes = try playlist.segmentSizes(playlistPath: mediaPath, separatingInitialization: true)
            initialization = try playlist.initializationSize(playlistPath: mediaPath)
        } catch {
            throw Failure(sentence: error.description, isUsage: false)
        }
        try checkSizes(sizes + [initialization], of: mediaPath)
        let segments = zip(playlist.segments, sizes).map { (duration: $0.0.duration, bytes: $0.1) }
        var source = SimulationSource(
            description: description, kind: "hls", media: .segmented(segments, initializationBytes: initialization))
        source.manifestHints = playlistHints(master: mediaPath == path ? nil : path, media: [mediaPath])
        if let audio = try hlsAudio(masterPath: path, group: audioGroup) {
            source.audio = audio.0
            source.audioDescription = audio.1
        }
        return source
    }
}
