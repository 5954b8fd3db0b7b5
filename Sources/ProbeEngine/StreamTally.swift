package import MediaIO
import PlaybackModel

/// What the packets of one stream add up to while a file is read: counts, bytes, span, keyframe
/// spacing (`GOPStats`), decode-order problems and the peak 1 s bit rate. Constant memory per stream.
package struct StreamTally: Sendable {
    /// Packets returned by the demuxer, corrupt ones included.
    package private(set) var packets = 0
    /// Packets flagged corrupt.
    package private(set) var corruptPackets = 0
    /// Payload bytes.
    package private(set) var bytes: Int64 = 0
    /// Keyframe packets.
    package private(set) var keyframes = 0
    /// Earliest presentation time.
    package private(set) var firstPts: Double?
    /// Latest presentation end (`pts + duration`).
    package private(set) var lastEnd: Double?
    /// Packets whose dts was lower than the one before.
    package private(set) var nonMonotonicDts = 0
    /// Largest byte end (`position + size`) seen, for partial-packet checks.
    package private(set) var maxByteEnd: Int64?
    /// Whether the stream's last packet was flagged corrupt: FFmpeg read fewer bytes than the packet
    /// declares, which at the end of a stream means the input ends inside it.
    package private(set) var endsWithCorruptPacket = false
    private var lastDts: Double?
    private var lastTime: Double?
    private var gop = GOPStats()
    private var peak = BitRateWindow(window: 1)

    private let isVideo: Bool

    /// An empty tally; keyframe spacing is measured for video only (every audio packet is a keyframe).
    package init(isVideo: Bool) { self.isVideo = isVideo }

    /// Adds one packet of this stream.
    package mutating func add(_ packet: Packet) {
        packets += 1
        bytes += Int64(packet.size)
        if packet.isCorrupt { corruptPackets += 1 }
        endsWithCorruptPacket = packet.isCorrupt
        if let position = packet.position {
            maxByteEnd = max(maxByteEnd ?? 0, position + Int64(packet.size))
        }
        if let dts = packet.dts {
            if let lastDts, dts < lastDts { nonMonotonicDts += 1 }
            lastDts = dts
        }
        // A packet without timestamps (audio frames split out of one PES before the parser knows the
        // codec's parameters) counts at the last time seen: leaving its bytes out would put the peak
        // below the average, which counts every byte.
        if let time = packet.dts ?? packet.pts ?? lastTime {
            peak.add(time: time, size: packet.size)
            lastTime = time
        }
        // Every audio packet is a keyframe: GOP spacing means something for video only.
        if isVideo { gop.add(time: packet.pts, isKeyframe: packet.isKeyframe) }
        guard let pts = packet.pts else { return }
        firstPts = min(firstPts ?? pts, pts)
        lastEnd = max(lastEnd ?? pts, pts + (packet.duration ?? 0))
        if packet.isKeyframe { keyframes += 1 }
    }

    /// The presentation span, when any packet had a timestamp.
    package var span: (start: Double, end: Double)? {
        guard let firstPts, let lastEnd else { return nil }
        return (firstPts, lastEnd)
    }

    /// Mean bit rate over the span, bits per second.
    package var averageBitRate: Double? {
        guard let span, span.end > span.start else { return nil }
        return Double(bytes) * 8 / (span.end - span.start)
    }

    /// Peak bit rate over any 1 s window of decode time, never below `averageBitRate` (a stream shorter
    /// than the window, or whose decode and presentation spans differ, could otherwise show one).
    package var peakBitRate: Double? {
        guard packets > 0 else { return nil }
        return max(peak.peakBitsPerSecond, averageBitRate ?? 0)
    }

    /// Min, mean and max time between keyframes, when there were at least two.
    package var keyframeInterval: (min: Double, avg: Double, max: Double)? {
        gop.interval.map { ($0.min, $0.avg, $0.max) }
    }

    /// Min, mean and max packets (frames) per GOP of a video stream, once it had a keyframe.
    package var framesPerGOP: (min: Double, avg: Double, max: Double)? {
        gop.framesPerGOP.map { ($0.min, $0.avg, $0.max) }
    }
}
