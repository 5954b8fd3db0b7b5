package import MediaIO
package import PlaybackModel

extension MediaInput {
    /// The input's streams as `PlaybackSession.playableStreams(from:)` sees them: kind, cover art, and
    /// libavformat's best choice of each kind. `among` restricts them (a chosen variant's streams); every
    /// stream by default. An index outside the stream list is skipped, never trusted.
    package func streamCandidates(among indices: [Int]? = nil) -> [PlaybackSession.StreamCandidate] {
        let chosen = indices ?? streams.map(\.index)
        return chosen.compactMap { index in
            guard streams.indices.contains(index) else { return nil }
            let stream = streams[index]
            // A stream whose parameters FFmpeg did not find (too small a probesize) cannot be decoded, so a
            // player leaves it out; probe says so in a warning (MissingParameters).
            let kind: PlaybackSession.StreamCandidate.Kind =
                switch stream.type {
                case _ where MissingParameters.missing(in: stream) != nil: .other
                case .video: .video
                case .audio: .audio
                default: .other
                }
            return PlaybackSession.StreamCandidate(
                index: index, kind: kind, isAttachedPicture: stream.isAttachedPicture,
                isPreferred: index == bestVideoStream || index == bestAudioStream)
        }
    }
}
