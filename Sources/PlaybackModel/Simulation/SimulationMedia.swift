/// The media as the simulated downloader sees it: units that become loaded in download order, each with
/// the byte offset at which it is complete, and the presentation time it covers.
///
/// - A progressive file (`progressive(packets:playableStreams:)`) is one HTTP resource fetched in byte
///   order: a unit is a packet, complete once every byte up to its end has arrived. Bytes before the first
///   packet (the header, a front `moov`) and between packets (container overhead) count too.
/// - A segmented stream (`segmented(_:)`, HLS and DASH) is fetched one request per segment: a unit is a
///   segment, complete when the whole segment has arrived, covering its time for every stream at once. An
///   initialization segment (`#EXT-X-MAP`, DASH `Initialization`) is fetched once, by a request of its
///   own, before the first segment (`initializationBytes`).
public struct SimulationMedia: Sendable {
    /// One unit of download.
    public struct Unit: Sendable, Hashable {
        /// Byte offset of the unit's first byte in the resource (a range request for a seek starts here).
        public var byteStart: Int64
        /// Bytes that must have arrived, counted from the start of the resource, for the unit to be complete.
        public var byteEnd: Int64
        /// The stream it belongs to; `nil` for a segment, which holds every stream.
        public var stream: Int?
        /// Presentation start in seconds.
        public var start: Double
        /// Presentation length in seconds (0 when unknown; the model then infers it).
        public var duration: Double
        /// Whether decoding can begin here.
        public var isKeyframe: Bool
    }

    /// How units map onto requests.
    public enum Layout: Sendable, Hashable {
        /// One resource read in byte order; a request continues until loading pauses or a seek moves it.
        case progressive
        /// One request per unit.
        case segmented
    }

    /// Where the units come from: held in memory, or generated on demand (synthetic media of any length
    /// in constant memory).
    enum Storage: Sendable {
        case stored([Unit])
        case synthetic(SyntheticMedia)
        /// Read while they arrive (`SimulationUnitFeed`).
        case fed(any SimulationUnitFeed)
    }

    let storage: Storage
    /// How many units there are.
    public let unitCount: Int
    /// The units in download order, all in memory (synthetic media generates them here: for tests and
    /// short media; the engine reads them one at a time through `makeReader()`).
    public var units: [Unit] {
        switch storage {
        case .stored(let units): return units
        case .synthetic, .fed:
            var reader = makeReader()
            return (0..<unitCount).map { reader.unit($0) }
        }
    }
    /// How units map onto requests.
    public let layout: Layout
    /// The streams a player plays (best video and best audio); empty for a segmented stream.
    public let playableStreams: [Int]
    /// Presentation start of the media (the first packet's time), in seconds.
    public let startTime: Double
    /// Presentation end of the media, in seconds.
    public let endTime: Double
    /// Total bytes of the resource (all segments for a segmented stream).
    public let totalBytes: Int64
    /// How the file's bytes are fetched (`DownloadLayout.progressive(indexAtEnd:mode:)`, the rule `probe`'s
    /// needs use too): one request in file order, or, for an index after the media, either that request
    /// up to the index's end before anything plays or three range requests (head, index, media).
    public let download: DownloadLayout
    /// Bytes that must have arrived before any unit is usable: the end of an index that sits after the
    /// media (an MP4 `moov` at the end, read by a plain sequential download), else 0.
    public var indexByteEnd: Int64 { download.indexByteEnd }
    /// Bytes of the initialization segment a segmented stream fetches once, in a request of its own,
    /// before its first segment (0: none). Counted in `totalBytes`.
    public private(set) var initializationBytes: Int64 = 0
    /// Per playable stream, the units where a seek may land: (presentation start, unit index), sorted by
    /// start. For video streams only keyframes. Empty for synthetic media, whose layout gives them.
    let seekPoints: [[(start: Double, unit: Int)]]

    /// The media's length in seconds.
    public var duration: Double { endTime - startTime }

    /// A progressive file from its packets (any order; sorted here by byte position, packets without one
    /// are placed right after the packet read before them). `playableStreams` are the streams a player
    /// plays; empty means every stream present. `totalBytes`, when known, includes trailing bytes after
    /// the last packet. The media's start and end are where every played stream has data (the latest first
    /// packet, the earliest last packet end); `duration` is used only when the packets carry no durations.
    ///
    /// `indexByteEnd` is for a file whose index follows the media (MP4 with `moov` at the end): read in
    /// byte order, no packet is usable before every byte up to the index's end has arrived.
    public static func progressive(
        packets: [MediaPacket], playableStreams: [Int], totalBytes: Int64? = nil, duration: Double? = nil,
        indexByteEnd: Int64 = 0
    ) -> SimulationMedia {
        progressive(
            packets: packets, playableStreams: playableStreams, totalBytes: totalBytes, duration: duration,
            download: DownloadLayout(indexByteEnd: indexByteEnd))
    }

    /// A progressive file fetched as `download` says (see `download`); otherwise as
    /// `progressive(packets:playableStreams:totalBytes:duration:indexByteEnd:)`.
    public static func progressive(
        packets: [MediaPacket], playableStreams: [Int], totalBytes: Int64? = nil, duration: Double? = nil,
        download: DownloadLayout
    ) -> SimulationMedia {
        var builder = ProgressiveBuilder()
        for packet in packets { builder.add(packet) }
        return builder.finish(
            playableStreams: playableStreams, totalBytes: totalBytes, duration: duration, download: download)
    }

    /// A segmented stream: `(duration seconds, size bytes)` per segment, in playlist order, starting at
    /// `startTime`, with an initialization segment of `initializationBytes` (0: none) fetched once first.
    public static func segmented(
        _ segments: [(duration: Double, bytes: Int64)], startTime: Double = 0, initializationBytes: Int64 = 0
    ) -> SimulationMedia {
        var units: [Unit] = []
        units.reserveCapacity(segments.count)
        var offset: Int64 = 0
        var time = startTime
        for segment in segments {
            units.append(
                Unit(
                    byteStart: offset, byteEnd: offset + segment.bytes, stream: nil, start: time,
                    duration: segment.duration, isKeyframe: true))
            offset += segment.bytes
            time += segment.duration
        }
        let initialization = max(initializationBytes, 0)
        var media = SimulationMedia(
            units: units, layout: .segmented, playableStreams: [], startTime: startTime, endTime: time,
            totalBytes: offset + initialization, download: .sequential)
        media.initializationBytes = initialization
        return media
    }

    /// Synthetic media as a progressive file whose packets are generated as the download reaches them:
    /// the same units as `progressive(packets: media.packets(), ...)`, in memory that does not grow with
    /// the media's length.
    public static func synthetic(_ media: SyntheticMedia) -> SimulationMedia {
        // One pass in constant memory for what `progressive` reads off the packets: start, end, size.
        let streams = [SyntheticMedia.videoStream, SyntheticMedia.audioStream]
        var firsts = [Double](repeating: .infinity, count: streams.count)
        var ends = [Double](repeating: -.infinity, count: streams.count)
        var reached: Int64 = 0
        var iterator = media.makeIterator()
        while let packet = iterator.next() {
            let time = packet.pts ?? 0
            let length = max(packet.duration ?? 0, 0)
            reached = max(reached, (packet.position ?? 0) + Int64(packet.size))
            if let index = streams.firstIndex(of: packet.stream) {
                firsts[index] = min(firsts[index], time)
                ends[index] = max(ends[index], time + length)
            }
        }
        var start = firsts.max() ?? 0
        var end = ends.min() ?? start
        if !start.isFinite { start = 0 }
        if !end.isFinite || end < start { end = start }
        return SimulationMedia(
            storage: .synthetic(media), unitCount: media.packetCount, layout: .progressive,
            playableStreams: streams, startTime: start, endTime: end, totalBytes: reached, download: .sequential)
    }

    init(
        storage: Storage, unitCount: Int, layout: Layout, playableStreams: [Int], startTime: Double,
        endTime: Double, totalBytes: Int64, download: DownloadLayout
    ) {
        self.storage = storage
        self.unitCount = unitCount
        self.layout = layout
        self.playableStreams = playableStreams
        self.startTime = startTime
        self.endTime = endTime
        self.totalBytes = totalBytes
        self.download = download
        self.seekPoints = []
    }

    init(
        units: [Unit], layout: Layout, playableStreams: [Int], startTime: Double, endTime: Double,
        totalBytes: Int64, download: DownloadLayout
    ) {
        self.download = download
        self.storage = .stored(units)
        self.unitCount = units.count
        self.layout = layout
        self.playableStreams = playableStreams
        self.startTime = startTime
        self.endTime = endTime
        self.totalBytes = totalBytes
        var points: [[(start: Double, unit: Int)]] = []
        let keyed: [Int?] = layout == .segmented ? [nil] : playableStreams.map { Optional($0) }
        for stream in keyed {
            let hasKeyframes = units.contains { $0.stream == stream && $0.isKeyframe }
            var list: [(start: Double, unit: Int)] = []
            for (index, unit) in units.enumerated()
            where unit.stream == stream && (unit.isKeyframe || !hasKeyframes) {
                list.append((unit.start, index))
            }
            list.sort { $0.start != $1.start ? $0.start < $1.start : $0.unit < $1.unit }
            points.append(list)
        }
        self.seekPoints = points
    }

    /// The first unit a download must fetch to play from `time`: per playable stream, the last seek point
    /// at or before `time` (the first one when `time` is before all), and of those the earliest in
    /// download order.
    public func restartUnit(for time: Double) -> Int {
        if case .synthetic(let media) = storage { return media.restartIndex(for: time) }
        // A fed file's seek points are known once it is read: the run cannot be the loaded media's.
        if case .fed(let feed) = storage {
            feed.invalidate()
            return 0
        }
        var best = unitCount
        for list in seekPoints where !list.isEmpty {
            var low = 0
            var high = list.count
            while low < high {
                let middle = (low + high) / 2
                if list[middle].start <= time { low = middle + 1 } else { high = middle }
            }
            best = min(best, list[max(low - 1, 0)].unit)
        }
        return best == unitCount ? 0 : best
    }

    /// A reader of the units by index: stored units directly, synthetic ones generated in order (a jump
    /// back regenerates from the start, as after a seek; it never holds more than one unit).
    public func makeReader() -> UnitReader { UnitReader(media: self) }

    /// Reads units by index; cheapest in increasing order.
    public struct UnitReader: Sendable {
        // Held apart from the enum so that reading a stored unit costs no reference counting.
        private let stored: [Unit]
        /// Whether the units are `stored`, tested first so that reading a stored unit copies nothing.
        private let isStored: Bool
        private let synthetic: SyntheticMedia?
        private var iterator: SyntheticMedia.PacketIterator?
        private var current: (index: Int, unit: Unit)?
        // A feed and its storage (which never moves while the feed lives), read below `fedCount`, the count
        // the feed last returned.
        private let fed: Fed?
        private var fedCount = 0

        private struct Fed: @unchecked Sendable {
            let feed: any SimulationUnitFeed
            let base: UnsafePointer<Unit>
        }

        init(media: SimulationMedia) {
            switch media.storage {
            case .stored(let units):
                stored = units
                isStored = true
                synthetic = nil
                fed = nil
            case .synthetic(let media):
                stored = []
                isStored = false
                synthetic = media
                fed = nil
            case .fed(let feed):
                stored = []
                isStored = false
                synthetic = nil
                fed = Fed(feed: feed, base: feed.base)
            }
        }

        /// Unit `index`, which must be below `unitCount`.
        public mutating func unit(_ index: Int) -> Unit {
            if isStored { return stored[index] }
            if let fed {
                if index < fedCount { return fed.base[index] }
                if let count = fed.feed.available(through: index) {
                    fedCount = count
                    return fed.base[index]
                }
                // The reading ended before the guessed count: the run is wasted; any unit lets it finish.
                return Unit(byteStart: 0, byteEnd: 0, stream: nil, start: 0, duration: 0, isKeyframe: true)
            }
            guard let synthetic else { return stored[index] }
            if let current, current.index == index { return current.unit }
            if iterator == nil || (current.map { $0.index > index } ?? false) {
                iterator = synthetic.makeIterator()
                current = nil
            }
            while var generator = iterator, let packet = generator.next() {
                iterator = generator
                let position = packet.position ?? 0
                let unit = Unit(
                    byteStart: position, byteEnd: position + Int64(packet.size), stream: packet.stream,
                    start: packet.pts ?? 0, duration: max(packet.duration ?? 0, 0), isKeyframe: packet.isKeyframe)
                current = (generator.index - 1, unit)
                if generator.index - 1 == index { return unit }
            }
            // Past the last unit: callers check `unitCount` first, so this is unreachable in use.
            return current?.unit ?? Unit(byteStart: 0, byteEnd: 0, stream: nil, start: 0, duration: 0, isKeyframe: true)
        }
    }
}
