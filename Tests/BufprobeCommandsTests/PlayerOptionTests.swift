import BufprobeCommands
@testable import CheckEngine
import Foundation
import PlaybackModel
import Testing
import TestSupport

/// `--player NAME`: a preset as the base the explicit policy options override, reported in JSON.
@Suite("--player presets on the command line")
struct PlayerOptionTests {
    @Test("--player sets the preset's policy; the explicit options override it; a given resume threshold is fixed")
    func overrides() throws {
        #expect(try BufferPolicyOptions.parse([]).policy() == .default)
        #expect(try BufferPolicyOptions.parse(["--player", "chromium"]).policy() == PlayerPreset.chromium.policy)
        let bigger = try BufferPolicyOptions.parse(["--player", "chromium", "--max-buffer", "20s"]).policy()
        #expect(bigger.forwardTarget == 20 && bigger.resumeGrowth == .doubling(cap: 3))
        let fixed = try BufferPolicyOptions.parse(["--player", "chromium", "--resume-threshold", "5s"]).policy()
        #expect(fixed.resumeThreshold == 5 && fixed.resumeGrowth == .fixed)
        try fixed.validate()
        #expect(try BufferPolicyOptions.parse(["--player", "ExoPlayer"]).player == .media3)
        #expect(throws: (any Error).self) { try BufferPolicyOptions.parse(["--player", "winamp"]) }
    }

    @Test("simulate --player reports the preset and the doubling cap in policy; without it neither key is written")
    func simulateReportsThePreset() throws {
        struct Document: Decodable {
            struct Policy: Decodable {
                var startThreshold: Double
                var resumeThreshold: Double
                var maxBuffer: Double
                var player: String?
                var resumeCap: Double?
            }
            var policy: Policy
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let media = BufprobeProcess.sample("h264-aac.mp4")
        let preset = try BufprobeProcess.run(["simulate", media, "--bandwidth", "2Mbit", "--player", "shaka", "--json"])
        #expect(preset.status == 0, "\(preset.stderr)")
        let policy = try decoder.decode(Document.self, from: Data(preset.stdout.utf8)).policy
        #expect(policy.player == "shaka" && policy.resumeCap == nil)
        #expect(policy.startThreshold == 2 && policy.resumeThreshold == 2 && policy.maxBuffer == 10)
        let plain = try BufprobeProcess.run(["simulate", media, "--bandwidth", "2Mbit", "--json"])
        #expect(!plain.stdout.contains("\"player\"") && !plain.stdout.contains("resume_cap"))
    }
}
