import Foundation
import MediaIO
import PlaybackModel
import InputReading

/// The separate audio track players fetch beside the video: a DASH audio adaptation set, an HLS
/// `EXT-X-MEDIA` audio rendition. Muxed audio (inside the video's segments) has none.
extension SimulationSource {
    /// What `manifest` tells a player preset's start rule: its minBufferTime, and the AAC frame of `audio`
    /// (the audio representation a player fetches beside the video, if any).
    static func manifestHints(
        _ manifest: DASHManifest, audio: DASHManifest.Representation?, path: String
    ) -> PlayerPreset.ManifestHints {
        let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber
        return PlayerPreset.ManifestHints(
            minBufferTime: manifest.minBufferTime,
            audioFrame: PlayerPreset.ManifestHints.aacFrame(codecs: audio?.codecs, samplingRate: audio?.audioSamplingRate),
            manifestBytes: size?.int64Value)
    }

    /// What an HLS master playlist at `master` (`nil` for a lone media playlist) and its media playlists at
    /// `media` (in the order listed) tell a player: their sizes, which a player fetches before any media.
    /// No DASH value: no existing profile reads these, so the hints change no HLS session.
    static func playlistHints(master: String?, media: [String]) -> PlayerPreset.ManifestHints {
        func size(_ path: String) -> Int64? {
            ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value
        }
        return PlayerPreset.ManifestHints(
            minBufferTime: nil, audioFrame: nil, masterPlaylistBytes: master.flatMap(size),
            mediaPlaylistBytes: media.compactMap(size))
    }

    /// The audio of a DASH manifest that has video: the first audio adaptation set's first representation
    /// (players adapt audio too; bufprobe fetches that one throughout). `nil` without one.
    static func dashAudio(_ manifest: DASHManifest, path: String) throws(Failure) -> (SimulationMedia, String)? {
        let sets = manifest.adaptationSets
        guard sets.contains(where: { $0.kind == .video }),
            let representation = sets.first(where: { $0.kind == .audio && !$0.representations.isEmpty })?
                .representations.first
        else { return nil }
        let measured: (initialization: Int64, segments: [(duration: Double, bytes: Int64)])
        do {
            measured = try manifest.segments(of: representation, manifestPath: path)
        } catch {
            throw Failure(sentence: error.description, isUsage: false)
        }
        guard !measured.segments.isEmpty else { return nil }
        try checkSizes(measured.segments.map(\.bytes) + [measured.initialization], of: path)
        let rate = BitRate(bitsPerSecond: Double(representation.bandwidth)).description
        return (
            .segmented(measured.segments, initializationBytes: measured.initialization),
            "audio representation \(representation.id) (\(rate))"
        )
    }

    /// The audio rendition of `group` in the master playlist at `masterPath` a player picks by itself
    /// (`HLSPlaylist.defaultAudioRendition`), when it has a media playlist of its own. `nil` otherwise.
    static func hlsAudio(masterPath: String, group: String?) throws(Failure) -> (SimulationMedia, String)? {
        guard let group,
            let rendition = HLSPlaylist.defaultAudioRendition(of: group, in: HLSPlaylist.audioRenditions(path: masterPath)),
            let uri = rendition.uri
        else { return nil }
        guard !InputCheck.isURL(uri) else {
            throw Failure(
                sentence: "\(masterPath) lists audio rendition \(rendition.name) at \(uri), a URL: simulate reads local playlists only (or use --no-audio-track).",
                isUsage: false)
        }
        let mediaPath = HLSPlaylist.resolve(uri, against: masterPath)
        let sizes: [Int64]
        let initialization: Int64
        let playlist: HLSPlaylist
        do {
            playlist = try HLSPlaylist.load(path: mediaPath)
            sizes = try playlist.segmentSizes(playlistPath: mediaPath, separatingInitialization: true)
            initialization = try playlist.initializationSize(playlistPath: mediaPath)
        } catch {
            throw Failure(sentence: error.description, isUsage: false)
        }
        guard playlist.kind == .media, !playlist.segments.isEmpty else { return nil }
        try checkSizes(sizes + [initialization], of: mediaPath)
        let segments = zip(playlist.segments, sizes).map { (duration: $0.0.duration, bytes: $0.1) }
        return (
            .segmented(segments, initializationBytes: initialization),
            "audio rendition \(rendition.name.isEmpty ? group : rendition.name) (\(uri))"
        )
    }
}
