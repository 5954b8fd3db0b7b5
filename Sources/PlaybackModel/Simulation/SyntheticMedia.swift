/// A made-up progressive file described by its bit rate and length: 30 fps video plus 48 kHz AAC-like audio
/// (1024-sample frames, 128 kbit/s of the total when the total allows, else an eighth), interleaved in
/// presentation order with no container overhead, video keyframes every 2 s.
///
/// With `variation` 0 every video frame has the same size, so the file is exactly constant bit rate. With
/// `variation` v > 0 each video frame's size is scaled by a factor drawn uniformly from `[1 - v, 1 + v]`
/// by `SplitMix64(seed:)`, and keyframes are three times the size of the frames around them; the average
/// rate stays close to `bitsPerSecond`.
public struct SyntheticMedia: Sendable, Hashable {
    /// Video stream index in the generated packets.
    public static let videoStream = 0
    /// Audio stream index in the generated packets.
    public static let audioStream = 1
    /// Video frame rate.
    public static let framesPerSecond = 30.0
    /// Seconds between keyframes.
    public static let keyframeInterval = 2.0
    /// Audio frame length in seconds (1024 samples at 48 kHz).
    public static let audioFrameDuration = 1024.0 / 48_000.0

    /// Total bit rate in bits per second.
    public var bitsPerSecond: Double
    /// Length in seconds.
    public var duration: Double
    /// Relative size variation of video frames, `0...1`.
    public var variation: Double
    /// Seed of the variation.
    public var seed: UInt64

    /// Describes synthetic media. The values are brought into the ranges the commands accept, so that no
    /// caller can make the frame counts or byte offsets overflow: `bitsPerSecond` into
    /// `0...BitRate.maximum` (1 Tbit/s), `duration` into `0...Seconds.maximum` (7 days), `variation` into
    /// `0...1`; NaN counts as 0.
    public init(bitsPerSecond: Double, duration: Double, variation: Double = 0, seed: UInt64 = 1) {
        self.bitsPerSecond = Self.clamp(bitsPerSecond, to: BitRate.maximum)
        self.duration = Self.clamp(duration, to: Seconds.maximum)
        self.variation = Self.clamp(variation, to: 1)
        self.seed = seed
    }

    private static func clamp(_ value: Double, to maximum: Double) -> Double {
        value.isNaN ? 0 : min(max(value, 0), maximum)
    }

    /// The audio share of the bit rate.
    public var audioBitsPerSecond: Double { min(128_000, bitsPerSecond / 8) }

    // The Int conversions below cannot trap: the init bounds the length to 7 days and the rate to
    // 1 Tbit/s, so frame counts stay below 2e7 and byte offsets below 8e16, far inside Int's range.

    /// Video frames in the media.
    var videoFrames: Int { Int(Rounding.up(duration * Self.framesPerSecond - 1e-9)) }
    /// Audio frames in the media.
    var audioFrames: Int { Int(Rounding.up(duration / Self.audioFrameDuration - 1e-9)) }
    /// Packets in the media.
    public var packetCount: Int { videoFrames + audioFrames }

    /// The packets in file order, with byte positions from 0.
    public func packets() -> [MediaPacket] {
        var result: [MediaPacket] = []
        result.reserveCapacity(packetCount)
        var iterator = makeIterator()
        while let packet = iterator.next() { result.append(packet) }
        return result
    }

    /// Generates the packets one at a time, in file order, in constant memory: a simulation of any length
    /// never holds them all.
    public func makeIterator() -> PacketIterator { PacketIterator(media: self) }

    /// The packets of a `SyntheticMedia`, in file order.
    public struct PacketIterator: IteratorProtocol, Sendable {
        let media: SyntheticMedia
        let videoFrames: Int
        let audioFrames: Int
        let videoBytesPerFrame: Double
        let audioBytesPerFrame: Double
        let framesPerGOP: Int
        var random: SplitMix64
        var position: Int64 = 0
        // Sizes are carried as running totals rounded once, so the file's size is the rate times the
        // length to within a byte, whatever the frame count.
        var videoExact = 0.0
        var audioExact = 0.0
        var video = 0
        var audio = 0

        init(media: SyntheticMedia) {
            self.media = media
            videoFrames = media.videoFrames
            audioFrames = media.audioFrames
            videoBytesPerFrame = (media.bitsPerSecond - media.audioBitsPerSecond) / 8 / SyntheticMedia.framesPerSecond
            audioBytesPerFrame = media.audioBitsPerSecond / 8 * SyntheticMedia.audioFrameDuration
            framesPerGOP = Int(Rounding.nearest(SyntheticMedia.keyframeInterval * SyntheticMedia.framesPerSecond))
            random = SplitMix64(seed: media.seed)
        }

        /// How many packets came before this one.
        public var index: Int { video + audio }

        /// The next packet, `nil` after the last.
        public mutating func next() -> MediaPacket? {
            guard video < videoFrames || audio < audioFrames else { return nil }
            let frameDuration = 1 / SyntheticMedia.framesPerSecond
            let audioFrameDuration = SyntheticMedia.audioFrameDuration
            let videoTime = Double(video) * frameDuration
            let audioTime = Double(audio) * audioFrameDuration
            let takeVideo = video < videoFrames && (audio >= audioFrames || videoTime <= audioTime)
            let start = takeVideo ? videoTime : audioTime
            let length = min(takeVideo ? frameDuration : audioFrameDuration, media.duration - start)
            let previous = takeVideo ? videoExact : audioExact
            var scale = length / (takeVideo ? frameDuration : audioFrameDuration)
            let isKeyframe = !takeVideo || video % framesPerGOP == 0
            if takeVideo, media.variation > 0 {
                // Keyframe weight 3 within a GOP whose mean weight stays 1: (3 + (n - 1) * w) / n == 1.
                let n = Double(framesPerGOP)
                let weight = isKeyframe ? 3 * (n / (n + 2)) : n / (n + 2)
                scale *= weight * (1 - media.variation + 2 * media.variation * random.nextUnit())
            }
            let next = previous + scale * (takeVideo ? videoBytesPerFrame : audioBytesPerFrame)
            let size = Int(Rounding.nearest(next)) - Int(Rounding.nearest(previous))
            if takeVideo {
                videoExact = next
                video += 1
            } else {
                audioExact = next
                audio += 1
            }
            let packet = MediaPacket(
                stream: takeVideo ? SyntheticMedia.videoStream : SyntheticMedia.audioStream, pts: start, dts: start,
                duration: length, size: size, position: position, isKeyframe: isKeyframe)
            position += Int64(size)
            return packet
        }
    }

    /// The index in file order of the first packet a download must fetch to play from `time`: per stream,
    /// the last keyframe at or before `time` (the first when `time` is before all), and of the two the
    /// earlier. Computed from the layout, without generating the packets.
    public func restartIndex(for time: Double) -> Int {
        let frameDuration = 1 / Self.framesPerSecond
        let framesPerGOP = Int(Rounding.nearest(Self.keyframeInterval * Self.framesPerSecond))
        let videoFrames = self.videoFrames
        let audioFrames = self.audioFrames
        var best = Int.max
        if videoFrames > 0 {
            // The last video keyframe at or before `time`; it follows every audio frame that starts earlier.
            let frames = count(upTo: videoFrames, step: frameDuration) { $0 <= time }
            let keyframe = max(frames - 1, 0) / framesPerGOP * framesPerGOP
            let keyTime = Double(keyframe) * frameDuration
            best = keyframe + count(upTo: audioFrames, step: Self.audioFrameDuration) { $0 < keyTime }
        }
        if audioFrames > 0 {
            // Every audio frame is a keyframe; it follows every video frame that starts at or before it.
            let frame = max(count(upTo: audioFrames, step: Self.audioFrameDuration) { $0 <= time } - 1, 0)
            let frameTime = Double(frame) * Self.audioFrameDuration
            best = min(best, frame + count(upTo: videoFrames, step: frameDuration) { $0 <= frameTime })
        }
        return best == .max ? 0 : best
    }

    /// How many of the frames `0..<total` at times `k * step` satisfy `isBefore`, a predicate true for a
    /// prefix of them, computed with the same arithmetic as the generator (so ties fall the same way).
    private func count(upTo total: Int, step: Double, _ isBefore: (Double) -> Bool) -> Int {
        var low = 0
        var high = total
        while low < high {
            let middle = (low + high) / 2
            if isBefore(Double(middle) * step) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
