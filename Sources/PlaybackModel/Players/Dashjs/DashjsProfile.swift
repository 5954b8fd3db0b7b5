/// dash.js 5.1.1 on Chromium (MSE): no start threshold of its own, so playback starts and resumes as soon
/// as the media element has data at the playhead; `bufferTimeDefault` 18 s ahead, `bufferToKeep` 20 s
/// behind. On `simulate` its ABR too (`DashjsAbr`); it fetches and parses its manifest over the link before
/// its first media request, loads audio a little past the video's level, and at the end of the video's
/// data Chromium plays on with audio for its underflow grace.
public struct DashjsProfile: PlayerProfile {
    /// dash.js's time from its manifest's last byte to its first media request (parsing the MPD, setting
    /// up MediaSource and its source buffers), measured in headless Chromium: 41-149 ms, median 68 ms, over
    /// the 12 cases of one `Benchmarks/webplayers.sh` run (Benchmarks/README.md, "dash.js's start").
    public static let manifestProcessing = 0.068

    /// The profile.
    public init() {}

    /// `dashjs`.
    public var name: String { "dashjs" }
    /// `dash.js`.
    public var aliases: [String] { ["dash.js"] }
    /// `dash.js 5.1.1`.
    public var playerName: String { "dash.js 5.1.1" }
    /// Benchmarks/README.md's `webplayers.sh` run of 2026-11-28 at 943ec17.
    public var measuredAgreement: String { "simulate agreed in 9 of 12 cases" }
    /// dash.js's settings; the media element's start, measured.
    public var source: String {
        "dash.js 5.1.1 src/core/Settings.js 1202, 1206 (bufferToKeep 20, bufferTimeDefault 18); no start threshold: the media element starts on data (MSE, measured)"
    }

    /// Under MSE Chromium started at the first segment appended and resumed as soon as the next one was
    /// (`Benchmarks/webplayers.sh`: 2.1-2.4 s stalls, every time): its starting capacity, never doubled;
    /// 18 s ahead, 20 s behind.
    public var policy: BufferPolicy {
        BufferPolicy(
            startThreshold: ChromiumProfile.startingCapacity, resumeThreshold: ChromiumProfile.startingCapacity,
            forwardTarget: 18, backBuffer: 20)
    }

    /// `DashjsAbr`.
    public var abr: PlayerAbr? { PlayerAbr(DashjsAbr()) }

    /// dash.js fetches its manifest over the same link first (its `manifestBytes` after a request latency)
    /// and processes it for `manifestProcessing`; 0 without a manifest size.
    public func startDelay(hints: PlayerPreset.ManifestHints?, network: NetworkModel) -> Double {
        guard let bytes = hints?.manifestBytes, bytes > 0 else { return 0 }
        let arrived = network.finishTime(bytes: bytes, start: network.requestLatency(at: 0))
        return arrived.isFinite ? arrived + Self.manifestProcessing : 0
    }

    /// Chromium's `videoUnderflowThreshold`: dash.js leaves stalls to the browser.
    public var videoUnderflowGrace: Double? { ChromiumProfile.videoUnderflowThreshold }

    /// dash.js's audio buffer target with a video track, max(video level + 1 s, the audio segment's
    /// duration) (`_getBufferTargetForAudio`, `src/streaming/controllers/ScheduleController.js` 304-320,
    /// used by `_shouldBuffer` 233-247).
    public var audioLeadOverVideo: Double? { 1 }
}
