extension SimulationMedia {
    /// Builds a progressive file's media one packet at a time, as they are read, so that a long file is
    /// never held twice (as packets and as units): `SimulationMedia.progressive(packets:...)` in streaming
    /// form, with the same rules (see there).
    public struct ProgressiveBuilder: Sendable {
        private var units: [Unit] = []
        private var nextPosition: Int64 = 0
        private var lastPosition = Int64.min
        private var isSorted = true
        private var streamsSeen: [Int] = []

        /// An empty builder, with room for `expectedCount` packets when the container declares how many
        /// it holds (capped, as the figure comes from the file).
        public init(expectedCount: Int = 0) {
            units.reserveCapacity(min(max(expectedCount, 0), 20_000_000))
        }

        /// Adds the next packet in reading order, and returns its unit as added (`byteEnd` still the
        /// packet's own end: `finish` makes it the running maximum); a packet with no timestamp is skipped.
        @discardableResult
        public mutating func add(_ packet: MediaPacket) -> Unit? {
            guard let time = packet.pts ?? packet.dts else { return nil }
            let position = packet.position ?? nextPosition
            if position < lastPosition { isSorted = false }
            lastPosition = position
            nextPosition = position + Int64(packet.size)
            if !streamsSeen.contains(packet.stream) { streamsSeen.append(packet.stream) }
            // `byteEnd` holds the packet's own end until `finish` turns it into the running maximum.
            let unit = Unit(
                byteStart: position, byteEnd: position + Int64(packet.size), stream: packet.stream, start: time,
                duration: max(packet.duration ?? 0, 0), isKeyframe: packet.isKeyframe)
            units.append(unit)
            return unit
        }

        /// How many units were added.
        public var count: Int { units.count }

        /// The media, as `progressive(packets:playableStreams:totalBytes:duration:indexByteEnd:)` describes.
        public consuming func finish(
            playableStreams: [Int], totalBytes: Int64? = nil, duration: Double? = nil, indexByteEnd: Int64 = 0
        ) -> SimulationMedia {
            finish(
                playableStreams: playableStreams, totalBytes: totalBytes, duration: duration,
                download: DownloadLayout(indexByteEnd: indexByteEnd))
        }

        /// The media, fetched as `download` says (`SimulationMedia.download`).
        public consuming func finish(
            playableStreams: [Int], totalBytes: Int64? = nil, duration: Double? = nil, download: DownloadLayout
        ) -> SimulationMedia {
            let indexByteEnd = download.indexByteEnd
            let streams = playableStreams.isEmpty ? streamsSeen.sorted() : playableStreams
            // Taken out of the builder so that the array is uniquely held: the pass below writes every
            // unit in place instead of copying them all first.
            var units = self.units
            self.units = []
            if !isSorted {
                // Stable order: byte position, then reading order.
                units = units.enumerated()
                    .sorted { $0.element.byteStart != $1.element.byteStart ? $0.element.byteStart < $1.element.byteStart : $0.offset < $1.offset }
                    .map(\.element)
            }
            var reached: Int64 = 0
            // Per played stream (indexed as in `streams`): first time, end of the last packet, and the last
            // positive duration (for packets that carry none).
            var firsts = [Double](repeating: .infinity, count: streams.count)
            var ends = [Double](repeating: -.infinity, count: streams.count)
            var lastDurations = [Double](repeating: 0, count: streams.count)
            for index in units.indices {
                reached = max(reached, units[index].byteEnd)
                units[index].byteEnd = reached
                let unit = units[index]
                if let slot = unit.stream.flatMap({ streams.firstIndex(of: $0) }) {
                    let length = unit.duration
                    if length > 0 { lastDurations[slot] = length }
                    firsts[slot] = min(firsts[slot], unit.start)
                    ends[slot] = max(ends[slot], unit.start + (length > 0 ? length : lastDurations[slot]))
                }
            }
            // The playable time is where every played stream has data: from the latest first packet (an
            // audio stream's negative priming timestamps do not move the start) to the earliest last end.
            var start = firsts.max() ?? 0
            var end = ends.min() ?? start
            if !start.isFinite { start = 0 }
            if !(end > start), let duration, duration.isFinite, duration > 0 { end = start + duration }
            if !end.isFinite || end < start { end = start }
            return SimulationMedia(
                units: units, layout: .progressive, playableStreams: streams, startTime: start, endTime: end,
                totalBytes: max(totalBytes ?? reached, reached, indexByteEnd), download: download)
        }
    }
}
