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

    /// Describes synthetic media; `bitsPerSecond` and `duration` must be positive.
    public init(bitsPerSecond: Double, duration: Double, variation: Double = 0, seed: UInt64 = 1) {
        self.bitsPerSecond = bitsPerSecond
        self.duration = duration
        self.variation = min(max(variation, 0), 1)
        self.seed = seed
    }

    /// The audio share of the bit rate.
    public var audioBitsPerSecond: Double { min(128_000, bitsPerSecond / 8) }

    /// The packets in file order, with byte positions from 0.
    public func packets() -> [MediaPacket] {
        let frameDuration = 1 / Self.framesPerSecond
        let videoFrames = Int(Rounding.up(duration * Self.framesPerSecond - 1e-9))
        let audioFrames = Int(Rounding.up(duration / Self.audioFrameDuration - 1e-9))
        let videoBytesPerFrame = (bitsPerSecond - audioBitsPerSecond) / 8 / Self.framesPerSecond
        let audioBytesPerFrame = audioBitsPerSecond / 8 * Self.audioFrameDuration
        let framesPerGOP = Int(Rounding.nearest(Self.keyframeInterval * Self.framesPerSecond))
        var random = SplitMix64(seed: seed)
        var result: [MediaPacket] = []
        result.reserveCapacity(videoFrames + audioFrames)
        var position: Int64 = 0
        // Sizes are carried as running totals rounded once, so the file's size is the rate times the
        // length to within a byte, whatever the frame count.
        var videoExact = 0.0
        var audioExact = 0.0
        var video = 0
        var audio = 0
        while video < videoFrames || audio < audioFrames {
            let videoTime = Double(video) * frameDuration
            let audioTime = Double(audio) * Self.audioFrameDuration
            let takeVideo = video < videoFrames && (audio >= audioFrames || videoTime <= audioTime)
            let start = takeVideo ? videoTime : audioTime
            let length = min(takeVideo ? frameDuration : Self.audioFrameDuration, duration - start)
            let previous = takeVideo ? videoExact : audioExact
            var scale = length / (takeVideo ? frameDuration : Self.audioFrameDuration)
            let isKeyframe = !takeVideo || video % framesPerGOP == 0
            if takeVideo, variation > 0 {
                // Keyframe weight 3 within a GOP whose mean weight stays 1: (3 + (n - 1) * w) / n == 1.
                let n = Double(framesPerGOP)
                let weight = isKeyframe ? 3 * (n / (n + 2)) : n / (n + 2)
                scale *= weight * (1 - variation + 2 * variation * random.nextUnit())
            }
            let next = previous + scale * (takeVideo ? videoBytesPerFrame : audioBytesPerFrame)
            let size = Int(Rounding.nearest(next)) - Int(Rounding.nearest(previous))
            if takeVideo { videoExact = next; video += 1 } else { audioExact = next; audio += 1 }
            result.append(
                MediaPacket(
                    stream: takeVideo ? Self.videoStream : Self.audioStream, pts: start, dts: start,
                    duration: length, size: size, position: position, isKeyframe: isKeyframe))
            position += Int64(size)
        }
        return result
    }
}
