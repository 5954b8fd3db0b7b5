extension PlayerPreset {
    /// What a manifest tells a player's start rule: a DASH MPD's `minBufferTime`, how much an AAC audio
    /// track's buffered range falls short of a segment boundary (one frame), and the sizes of the manifest
    /// or playlists a player fetches over the link before its first media request.
    public struct ManifestHints: Sendable, Hashable {
        /// `MPD@minBufferTime`, seconds, when given.
        public var minBufferTime: Double?
        /// One frame of the audio track (1024 samples of AAC at its `audioSamplingRate`), seconds, when the
        /// manifest has an AAC audio track with a known sampling rate.
        public var audioFrame: Double?

        /// The DASH manifest's size in bytes, when known: a player fetches it over the link before any media.
        public var manifestBytes: Int64?
        /// An HLS master playlist's size in bytes, when the media is one.
        public var masterPlaylistBytes: Int64?
        /// The sizes in bytes of the HLS media playlists simulate reads, in the order the master playlist
        /// lists their variants (only the one played with `--variant` or a media playlist); empty for DASH.
        public var mediaPlaylistBytes: [Int64]

        /// Creates hints.
        public init(
            minBufferTime: Double?, audioFrame: Double?, manifestBytes: Int64? = nil,
            masterPlaylistBytes: Int64? = nil, mediaPlaylistBytes: [Int64] = []
        ) {
            self.minBufferTime = minBufferTime
            self.audioFrame = audioFrame
            self.manifestBytes = manifestBytes
            self.masterPlaylistBytes = masterPlaylistBytes
            self.mediaPlaylistBytes = mediaPlaylistBytes
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
