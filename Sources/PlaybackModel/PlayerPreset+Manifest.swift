extension PlayerPreset {
    /// What a manifest tells a player's start rule: a DASH MPD's `minBufferTime`, and how much an AAC audio
    /// track's buffered range falls short of a segment boundary (one frame).
    public struct ManifestHints: Sendable, Hashable {
        /// `MPD@minBufferTime`, seconds, when given.
        public var minBufferTime: Double?
        /// One frame of the audio track (1024 samples of AAC at its `audioSamplingRate`), seconds, when the
        /// manifest has an AAC audio track with a known sampling rate.
        public var audioFrame: Double?

        /// The manifest's size in bytes, when known: a player fetches it over the link before any media.
        public var manifestBytes: Int64?

        /// Creates hints.
        public init(minBufferTime: Double?, audioFrame: Double?, manifestBytes: Int64? = nil) {
            self.minBufferTime = minBufferTime
            self.audioFrame = audioFrame
            self.manifestBytes = manifestBytes
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

    /// dash.js's time from its manifest's last byte to its first media request (parsing the MPD, setting up
    /// MediaSource and its source buffers), measured in headless Chromium: 41-149 ms, median 68 ms, over the
    /// 12 cases of one `Benchmarks/webplayers.sh` run (Benchmarks/README.md, "dash.js's start").
    public static let dashjsManifestProcessing = 0.068

    /// Session seconds before the player's first media request goes out on `network`: dash.js fetches its
    /// manifest over the same link first (its `manifestBytes` after a request latency) and processes it for
    /// `dashjsManifestProcessing`. 0 for the other presets and without a manifest size: their start counts
    /// from their first media request.
    public func startDelay(hints: ManifestHints?, network: NetworkModel) -> Double {
        guard self == .dashjs, let bytes = hints?.manifestBytes, bytes > 0 else { return 0 }
        let arrived = network.finishTime(bytes: bytes, start: network.requestLatency(at: 0))
        return arrived.isFinite ? arrived + Self.dashjsManifestProcessing : 0
    }

    /// The policy for media whose manifest gives `hints`. Shaka 3.1 waits (at the start and after a
    /// stall) for `max(rebufferingGoal, minBufferTime)` ahead of the playhead (`lib/player.js` 1847-1849),
    /// counted on the media element's `buffered`, the intersection of the audio and video source buffers;
    /// an AAC track ends each segment on a whole frame before the video's boundary (measured in Chromium:
    /// 3.989 s buffered after segments ending at 4 s), so a lead of exactly the goal is never reached at a
    /// boundary: one audio frame is added. Its streaming engine loads each track up to
    /// `max(minBufferTime, rebufferingGoal, bufferingGoal)` ahead (`lib/media/streaming_engine.js` 963-966),
    /// so a `minBufferTime` above the 10 s buffering goal raises the forward target with it: the target is
    /// never below the rebuffering goal, and the derived policy is always one that can play. Other presets,
    /// and no hints, keep `policy`.
    public func policy(for hints: ManifestHints?) -> BufferPolicy {
        var policy = self.policy
        guard self == .shaka, let hints else { return policy }
        let goal = max(Self.shakaRebufferingGoal, hints.minBufferTime ?? 0) + (hints.audioFrame ?? 0)
        policy.startThreshold = goal
        policy.resumeThreshold = goal
        policy.forwardTarget = max(policy.forwardTarget, goal)
        policy.stallLevel = Self.shakaStallLevel(goal: goal)
        return policy
    }

    /// Where a preset's value for `setting` came from, when the manifest (`hints`) changed it from the
    /// preset's own: `"Shaka's rebuffering goal raised to the manifest's minBufferTime"`; `nil` otherwise.
    /// Error sentences name it, so a user whose own value conflicts with it knows what it is.
    public func derivation(of setting: BufferPolicyError.Setting, hints: ManifestHints?) -> String? {
        guard self == .shaka, let hints, let minBufferTime = hints.minBufferTime,
            minBufferTime > Self.shakaRebufferingGoal
        else { return nil }
        switch setting {
        case .startThreshold, .resumeThreshold, .stallLevel:
            return "Shaka's rebuffering goal raised to the manifest's minBufferTime"
        case .forwardTarget where minBufferTime + (hints.audioFrame ?? 0) > self.policy.forwardTarget:
            return "Shaka's buffering goal raised to the manifest's minBufferTime"
        default:
            return nil
        }
    }
}
