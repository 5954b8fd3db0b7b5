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
}
