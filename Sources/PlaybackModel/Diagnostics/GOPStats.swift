/// Keyframe (GOP) spacing of one video stream: the time between consecutive keyframes and the packets per
/// GOP, each as min, mean and max. Constant memory.
public struct GOPStats: Sendable, Hashable {
    /// Min, mean and max of a series.
    public struct Spread: Sendable, Hashable {
        /// Smallest.
        public var min: Double
        /// Mean.
        public var avg: Double
        /// Largest.
        public var max: Double
    }

    private var lastKeyframeTime: Double?
    private var intervalMin = Double.infinity
    private var intervalMax = 0.0
    private var intervalSum = 0.0
    private var intervalCount = 0
    private var packetsInGOP = 0
    private var sawKeyframe = false
    private var framesMin = Int.max
    private var framesMax = 0
    private var framesSum = 0
    private var framesCount = 0

    /// Empty statistics.
    public init() {}

    /// Adds the next packet of the stream in read order, with its presentation time when known.
    public mutating func add(time: Double?, isKeyframe: Bool) {
        if isKeyframe {
            if sawKeyframe { closeGOP() }
            sawKeyframe = true
            packetsInGOP = 0
            // Keyframes of a closed GOP arrive in presentation order, so the difference is the GOP length.
            if let time {
                if let previous = lastKeyframeTime, time > previous {
                    let interval = time - previous
                    intervalMin = Swift.min(intervalMin, interval)
                    intervalMax = Swift.max(intervalMax, interval)
                    intervalSum += interval
                    intervalCount += 1
                }
                lastKeyframeTime = time
            }
        }
        if sawKeyframe { packetsInGOP += 1 }
    }

    private mutating func closeGOP() {
        framesMin = Swift.min(framesMin, packetsInGOP)
        framesMax = Swift.max(framesMax, packetsInGOP)
        framesSum += packetsInGOP
        framesCount += 1
    }

    /// Seconds between consecutive keyframes, when there were at least two.
    public var interval: Spread? {
        guard intervalCount > 0 else { return nil }
        return Spread(min: intervalMin, avg: intervalSum / Double(intervalCount), max: intervalMax)
    }

    /// Packets (frames) per GOP, counted from a keyframe up to the next one in read order; the GOP still
    /// open at the end counts too. `nil` before the first keyframe.
    public var framesPerGOP: Spread? {
        guard sawKeyframe else { return nil }
        var copy = self
        copy.closeGOP()
        return Spread(
            min: Double(copy.framesMin), avg: Double(copy.framesSum) / Double(copy.framesCount),
            max: Double(copy.framesMax))
    }
}
