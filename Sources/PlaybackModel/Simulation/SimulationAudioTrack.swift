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
struct SimulationAudioTrack: Sendable {
    /// The audio's requests.
    var downloader: SimulationDownloader
    /// Audio time received since the last restart (media time).
    var audioRanges = TimeRanges()
    /// Video time received since the last restart (media time).
    var videoRanges = TimeRanges()

    /// A track of `media` (segmented, one rendition) on `network`.
    init(media: SimulationMedia, network: NetworkModel) {
        downloader = SimulationDownloader(
            media: media, network: network, variantUnits: [], initializationBytes: [media.initializationBytes],
            track: .audio)
    }
}
