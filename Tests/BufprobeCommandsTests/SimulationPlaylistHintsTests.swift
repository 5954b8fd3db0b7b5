import Foundation
import PlaybackModel
import Testing
import TestSupport

@testable import SimulateEngine

/// What an HLS source tells a player's profile (`PlayerPreset.ManifestHints`): the playlists' sizes, which a
/// player that fetches them over the link before its first segment (`PlayerProfile.startDelay`) reads.
@Suite struct SimulationPlaylistHintsTests {
    static func size(_ path: String) throws -> Int64 {
        try #require((try FileManager.default.attributesOfItem(atPath: path))[.size] as? NSNumber).int64Value
    }

    @Test("an HLS ladder's hints hold the master playlist's size and each media playlist's, in the order listed, and no DASH value")
    func ladderHints() throws {
        let master = BufprobeProcess.sample("hls/master.m3u8")
        let source = try SimulationSource.load(master, variant: nil, adaptive: true)
        let hints = try #require(source.manifestHints)
        let masterBytes = try Self.size(master)
        let media = try ["low/index.m3u8", "high/index.m3u8"].map { try Self.size(BufprobeProcess.sample("hls/\($0)")) }
        #expect(hints.masterPlaylistBytes == masterBytes)
        #expect(hints.mediaPlaylistBytes == media)
        #expect(hints.mediaPlaylistBytes.allSatisfy { $0 > 0 } && hints.mediaPlaylistBytes[0] != hints.masterPlaylistBytes)
        #expect(hints.manifestBytes == nil && hints.minBufferTime == nil && hints.audioFrame == nil)
    }

    @Test("one variant's hints hold the master's size and that variant's playlist; a lone media playlist has no master")
    func variantHints() throws {
        let master = BufprobeProcess.sample("hls/master.m3u8")
        let high = BufprobeProcess.sample("hls/high/index.m3u8")
        let (masterBytes, highBytes) = (try Self.size(master), try Self.size(high))
        let chosen = try #require(try SimulationSource.load(master, variant: 1).manifestHints)
        #expect(chosen.masterPlaylistBytes == masterBytes && chosen.mediaPlaylistBytes == [highBytes])
        let lone = try #require(try SimulationSource.load(high, variant: nil).manifestHints)
        #expect(lone.masterPlaylistBytes == nil && lone.mediaPlaylistBytes == [highBytes])
    }

    @Test("no listed player's start delay or policy reads the playlists' hints but GStreamer's start delay: other HLS sessions are as they were")
    func hintsChangeNoPlayer() throws {
        let hints = try #require(try SimulationSource.load(BufprobeProcess.sample("hls/master.m3u8"), variant: nil, adaptive: true).manifestHints)
        let network = NetworkModel(bitsPerSecond: 1_000_000, latency: 0.05)
        #expect(PlayerPreset.gstreamer.profile.startDelay(hints: hints, network: network) > 0.1)
        #expect(PlayerPreset.gstreamer.policy(for: hints) == PlayerPreset.gstreamer.policy)
        for preset in PlayerPreset.allCases where preset != .gstreamer {
            #expect(preset.profile.startDelay(hints: hints, network: network) == 0, "\(preset)")
            #expect(preset.policy(for: hints) == preset.policy, "\(preset)")
        }
    }
}
