import Testing

@testable import PlaybackModel

/// The list of players (`PlayerPreset`) and their profiles, and the hook a player's own start and resume
/// rule plugs into (`BufferPolicy.KeepUpRule.player`).
@Suite struct PlayerProfileTests {
    @Test("the list holds each player once: every profile's name is its case's CLI spelling, no name or alias twice")
    func eachPlayerOnce() {
        let names = PlayerPreset.allCases.map(\.profile.name)
        #expect(names == PlayerPreset.allCases.map(\.rawValue))
        let spellings = PlayerPreset.allCases.flatMap { [$0.rawValue] + $0.profile.aliases }
        #expect(Set(spellings).count == spellings.count, "\(spellings)")
        #expect(Set(PlayerPreset.allCases.map(\.profile.playerName)).count == PlayerPreset.allCases.count)
    }

    @Test("every profile has a one-line --help entry starting with its name and a source citation", arguments: PlayerPreset.allCases)
    func helpAndSource(preset: PlayerPreset) {
        let profile = preset.profile
        #expect(profile.helpLine.hasPrefix("\(preset.rawValue): ") && profile.helpLine.count > "\(preset.rawValue): ".count)
        #expect(!profile.helpLine.contains("\n") && !profile.source.contains("\n"))
        #expect(!profile.playerName.isEmpty && !profile.measuredAgreement.isEmpty)
        #expect(profile.source.count > 20, "\(preset): \(profile.source)")
        #expect(PlayerPreset.helpDiscussion.contains(profile.helpLine))
    }

    @Test("a lookup by CLI spelling or alias, in any case, finds the player it names", arguments: PlayerPreset.allCases)
    func lookupRoundTrips(preset: PlayerPreset) {
        #expect(PlayerPreset(name: preset.rawValue) == preset)
        #expect(PlayerPreset(name: preset.profile.name.uppercased()) == preset)
        for alias in preset.profile.aliases {
            #expect(PlayerPreset(name: alias) == preset && PlayerPreset(name: alias.uppercased()) == preset)
        }
        #expect(PlayerPreset(name: preset.rawValue + "x") == nil)
    }

    @Test("each profile's policy can play, and the forwarding members are the profile's")
    func policiesValid() throws {
        for preset in PlayerPreset.allCases {
            try preset.policy.validate()
            #expect(preset.policy == preset.profile.policy && preset.abr == preset.profile.abr)
            #expect(preset.policy(for: nil) == preset.policy)
        }
        #expect(PlayerPreset.allCases.filter { $0.abr != nil } == [.hlsjs, .shaka, .dashjs, .gstreamer, .vlc])
    }

    /// A start rule counted in another measure than seconds ahead: a share of the forward target, as a
    /// buffering percentage is; rebuffering needs the whole of it.
    struct PercentOfTarget: PlayerStartRule {
        var percent: Double
        var name: String { "percent" }
        var parameters: [String: Double] { ["percent": percent] }
        func isLikelyToKeepUp(_ item: PlaybackItem, bufferedAhead: Double) -> Bool {
            let needed = item.isRebuffering ? 100 : percent
            return bufferedAhead / item.policy.forwardTarget * 100 >= needed
        }
    }

    @Test("a player's own start rule decides keep-up in place of the thresholds, but not once the rest is loaded")
    func playerStartRuleDecides() {
        var item = PlaybackItem(duration: .finite(150))
        item.policy = BufferPolicy(startThreshold: 1, resumeThreshold: 2, forwardTarget: 200)
        item.policy.keepUp = .player(PlayerStart(PercentOfTarget(percent: 50)))
        item.loadedTimeRanges.insert(start: 0, end: 80)
        #expect(!item.isPlaybackLikelyToKeepUp)  // 40 % < 50 %, though 80 s is far above the 1 s start threshold
        item.loadedTimeRanges.insert(start: 80, end: 120)
        #expect(item.isPlaybackLikelyToKeepUp)  // 60 %
        item.isRebuffering = true
        #expect(!item.isPlaybackLikelyToKeepUp)  // resuming needs 100 %
        item.loadedTimeRanges.insert(start: 120, end: 150)
        #expect(item.isPlaybackLikelyToKeepUp)  // 75 %, but loaded through the end
        #expect(PlayerStart(PercentOfTarget(percent: 50)) != PlayerStart(PercentOfTarget(percent: 60)))
    }
}
