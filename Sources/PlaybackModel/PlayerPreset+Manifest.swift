extension PlayerPreset {
    /// What a manifest tells a player's start rule: a DASH MPD's `minBufferTime`, and how much an AAC audio
    /// track's buffered range falls short of a segment boundary (one frame).
    public struct ManifestHints: Sendable, Hashable {
        /// `MPD@minBufferTime`, seconds, when given.
        public var minBufferTime: Double?
        /// One frame of the audio track (1024 samples of AAC at its `audioSamplingRate`), seconds, when the
        /// manifest has an AAC audio track with a known sampling rate.
        public var audioFrame: Double?

        /// Creates hints.
        public init(minBufferTime: Double?, audioFrame: Double?) {
            self.minBufferTime = minBufferTime
            self.audioFrame = audioFrame
        }

        /// One AAC frame (1024 samples, ISO/IEC 14496-3) at `samplingRate`, for `codecs` of the `mp4a.40.`
        /// family; `nil` for other codecs or no rate.
        public static func aacFrame(codecs: String?, samplingRate: Int?) -> Double? {
            guard let codecs, codecs.lowercased().hasPrefix("mp4a.40."), let samplingRate, samplingRate > 0 else {
                return nil
            }
            return 1024 / Double(samplingRate)
        }
    }

    /// The policy for media whose manifest gives `hints`. Shaka 3.1 waits (at the start and after a
    /// stall) for `max(rebufferingGoal, minBufferTime)` ahead of the playhead (`lib/player.js` 1847-1849),
    /// counted on the media element's `buffered`, the intersection of the audio and video source buffers;
    /// an AAC track ends each segment on a whole frame before the video's boundary (measured in Chromium:
    /// 3.989 s buffered after segments ending at 4 s), so a lead of exactly the goal is never reached at a
    /// boundary: one audio frame is added. Other presets, and no hints, keep `policy`.
    public func policy(for hints: ManifestHints?) -> BufferPolicy {
        var policy = self.policy
        guard self == .shaka, let hints else { return policy }
        let goal = max(Self.shakaRebufferingGoal, hints.minBufferTime ?? 0) + (hints.audioFrame ?? 0)
        policy.startThreshold = goal
        policy.resumeThreshold = goal
        policy.stallLevel = Self.shakaStallLevel(goal: goal)
        return policy
    }
}
