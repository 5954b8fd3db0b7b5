/// A separate audio track fetched beside the video (a DASH audio adaptation set, an HLS `EXT-X-MEDIA`
/// audio rendition), as MSE players fetch it: its own downloader and requests, one segment after another
/// like a player's audio stream controller, with the video's forward-buffer target, on the same link.
///
/// Rules (`SimulationEngine`'s track methods apply them):
/// - Playable time is the intersection of the two tracks' buffered ranges (MSE's `buffered` of a media
///   element with a video and an audio source buffer): the player starts, stalls and resumes on the
///   shorter of the two buffers, and the ABR rule sees that buffer.
/// - While the player loads, the track whose data ends first always loads its next segment; the other
///   loads too while its own buffer ahead of the playhead is below the forward target. At the target the
///   player stops loading and both tracks stop.
/// - The link is shared: while bytes of both tracks' requests flow, each gets half of the bandwidth
///   (`NetworkModel.Transfer`'s share; docs/model.md says why). A request in its latency takes no share.
/// - A seek out of the buffer sends both tracks to the segment holding the target.
/// - Video-underflow grace (`underflowGrace`, Chromium's renderer under MSE; 0 by default): while playing,
///   when the video data holding the playhead ends before the audio's, playback goes on with the audio
///   for up to the grace past the video's end, the picture frozen; it stalls when the audio ends or the
///   grace is used up, whichever first, and video arriving meanwhile only helps when it holds the playhead
///   (older frames are dropped). Not at the start or during a stall: the renderer starts and resumes only
///   with both tracks at the playhead. The player's loaded ranges hold the grace while it is lent, the
///   report's received ranges do not (the media element's `buffered` is the intersection throughout).
/// - A lead over the video (`leadOverVideo`, dash.js's audio schedule; `nil` by default): instead of the
///   rule above, the audio requests its next segment only while its level ahead of the playhead, less
///   `bufferedShortfall` (an AAC track's buffered range ends up to one frame before the segment boundary),
///   is below max(the video's level + the lead, the next audio segment's duration); the levels are what
///   has arrived, as in the source buffers, not what is in flight. Held back, it looks again every
///   `recheckInterval` (dash.js's `scheduling.defaultTimeout`, 500 ms, `src/core/Settings.js` 1248) and at
///   every arrival: past the video's end, during the grace, the audio's level falls while the video's stays 0.
/// - A run-ahead limit (`runAhead`, Shaka 3.1's; `nil` by default): instead of the rule above, the audio
///   requests its next segment only while the end of its data is less than `runAhead` seconds past the
///   video's (`update_`'s "do not let any one stream get far ahead of any other", comparing the ends of
///   the segments appended, `lib/media/streaming_engine.js` 1020-1043) and its buffer ahead is below the
///   forward target; held back, it looks again only `runAheadRetry` later (its update timer, line 1042),
///   not when a video segment arrives.
struct SimulationAudioTrack: Sendable {
    /// The audio's requests.
    var downloader: SimulationDownloader
    /// Audio time received since the last restart (media time).
    var audioRanges = TimeRanges()
    /// Video time received since the last restart (media time).
    var videoRanges = TimeRanges()
    /// Seconds of playback on audio alone past the video's end (`PlayerProfile.videoUnderflowGrace`).
    var underflowGrace = 0.0
    /// The end of the video the player last played from: where the grace counts from.
    var graceAnchor: Double?
    /// Session seconds played on the grace: audio playing on with no video under the playhead, the picture
    /// frozen though the player is not stalled.
    var audioAloneTime = 0.0
    /// Whether the last step played audio alone: the next one that does not ends the stretch.
    var playingAlone = false
    /// The audio's schedule: how far past the video's level it loads (`nil`: up to the forward target).
    var leadOverVideo: Double?
    /// How far short of its last segment's end the audio's buffered range ends (one AAC frame), seconds.
    var bufferedShortfall = 0.0
    /// When the held-back audio looks again (`infinity`: not held back).
    var recheckTime = Double.infinity
    /// dash.js's schedule timer, seconds.
    static let recheckInterval = 0.5
    /// The run-ahead limit, seconds (`nil`: none).
    var runAhead: Double?
    /// Shaka's retry after waiting for the other stream (`update_` returns 1), seconds.
    static let runAheadRetry = 1.0
    /// Session time before which a held-back audio does not look again (the run-ahead's timer).
    var waitsUntil = -Double.infinity

    /// A track of `media` (segmented, one rendition) on `network`.
    init(media: SimulationMedia, network: NetworkModel) {
        downloader = SimulationDownloader(
            media: media, network: network, variantUnits: [], initializationBytes: [media.initializationBytes],
            track: .audio)
    }

    /// Whether the audio, idle, should request its next segment (of `nextDuration` seconds, its data so far
    /// ending at `audioFrontier`), with the video's ending at `videoFrontier`, the playhead at `playhead` and
    /// the forward target `target`: the rules above.
    func mayLoad(audioFrontier: Double, videoFrontier: Double, playhead: Double, target: Double, nextDuration: Double)
        -> Bool
    {
        if let runAhead { return audioFrontier < videoFrontier + runAhead && audioFrontier - playhead < target }
        guard let lead = leadOverVideo else { return audioFrontier <= videoFrontier || audioFrontier - playhead < target }
        let audioLevel = max(0, audioFrontier - playhead - bufferedShortfall)
        return audioLevel < max(videoRanges.bufferedAhead(from: playhead) + lead, nextDuration)
    }
}
