/// Everything bufprobe knows about one real player, in one place: what `--player NAME` means on `check`
/// and `simulate`.
///
/// A profile is a value the engines ask; they never switch over the player. It gives:
/// - the start and resume rule, the forward target and what the player does at a stall (`policy`: the
///   thresholds, `resumeGrowth`, `stallLevel`, `stallNudge`, and `keepUp`, where a player with a rule of
///   its own that no threshold states sets `.custom` with its `PlayerStartRule`), and how a manifest's
///   hints change them (`policy(for:)`, `derivation(of:hints:)`);
/// - its first variant, default estimate, estimator, switch rule and abandonment on `simulate` (`abr`, a
///   `PlayerAbrModel`), and when its first media request goes out (`startDelay(hints:network:)`);
/// - how it fetches a separate audio track and plays at the end of the video's data
///   (`videoUnderflowGrace`, `audioLeadOverVideo`, `audioRunAheadSegments`, applied by `configure(_:hints:)`,
///   which a player with another schedule overrides);
/// - its name and version, its measured agreement with the real player, its one `--help` line and the
///   sources its values come from (`source`; docs/model.md's "Player presets" table cites each one).
///
/// Each player lives in a folder of its own, `Sources/PlaybackModel/Players/<Player>/`: its profile and
/// its ABR model. To add a player: write its folder, add its case to `PlayerPreset` (the list of players,
/// with its profile), its tests and its row in docs/model.md. No engine file changes.
public protocol PlayerProfile: Sendable {
    /// The name on the command line, lower case: `hlsjs`. `PlayerPreset`'s raw value.
    var name: String { get }
    /// Other spellings `--player` accepts, lower case (`hls.js`, `exoplayer`); none by default.
    var aliases: [String] { get }
    /// The player and its version in words, as reports name it: `Shaka Player 3.1`.
    var playerName: String { get }
    /// How closely the profile follows the real player, as measured, or that it was not measured.
    var measuredAgreement: String { get }
    /// Where the values come from, in one line (docs/model.md cites each value at its source).
    var source: String { get }
    /// The player's line in `--player`'s help: by default its name, `playerName` and `measuredAgreement`.
    var helpLine: String { get }

    /// The player's policy in bufprobe's terms (thresholds on media loaded ahead of the playhead).
    var policy: BufferPolicy { get }
    /// The policy for media whose manifest gives `hints`; by default `policy`, whatever the hints.
    func policy(for hints: PlayerPreset.ManifestHints?) -> BufferPolicy
    /// Where the profile's value for `setting` came from, when the manifest (`hints`) changed it from the
    /// profile's own; `nil` (the default) otherwise. Error sentences name it.
    func derivation(of setting: BufferPolicyError.Setting, hints: PlayerPreset.ManifestHints?) -> String?

    /// The player's own ABR on `simulate`, or `nil` (the default) for a buffering rule only.
    var abr: PlayerAbr? { get }
    /// Session seconds before the player's first media request goes out on `network` (a manifest fetched
    /// and processed over the same link first); 0 by default.
    func startDelay(hints: PlayerPreset.ManifestHints?, network: NetworkModel) -> Double

    /// Seconds the player plays on with audio alone after the video runs out (a browser's renderer under
    /// MSE); `nil` (the default): it stalls as soon as either track does.
    var videoUnderflowGrace: Double? { get }
    /// How far past the video's buffer level a separate audio track is loaded; `nil` (the default): up to
    /// the forward target.
    var audioLeadOverVideo: Double? { get }
    /// How many segment durations a separate audio track may run ahead of the video's data; `nil` (the
    /// default): no limit.
    var audioRunAheadSegments: Double? { get }
    /// Sets the engine's track schedule and end-of-video rule for this player on media with `hints`; by
    /// default from `videoUnderflowGrace`, `audioLeadOverVideo` and `audioRunAheadSegments`.
    func configure(_ engine: inout SimulationEngine, hints: PlayerPreset.ManifestHints?)
}

extension PlayerProfile {
    /// No other spelling.
    public var aliases: [String] { [] }

    /// `name: playerName; measuredAgreement.`
    public var helpLine: String { "\(name): \(playerName); \(measuredAgreement)." }

    /// `policy`, whatever the hints.
    public func policy(for hints: PlayerPreset.ManifestHints?) -> BufferPolicy { policy }

    /// No value derived from a manifest.
    public func derivation(of setting: BufferPolicyError.Setting, hints: PlayerPreset.ManifestHints?) -> String? {
        nil
    }

    /// A buffering rule only.
    public var abr: PlayerAbr? { nil }

    /// The first media request goes out at once.
    public func startDelay(hints: PlayerPreset.ManifestHints?, network: NetworkModel) -> Double { 0 }

    /// No grace: a stall as soon as either track runs out.
    public var videoUnderflowGrace: Double? { nil }

    /// Audio loaded up to the forward target.
    public var audioLeadOverVideo: Double? { nil }

    /// No run-ahead limit.
    public var audioRunAheadSegments: Double? { nil }

    /// The grace (0 without one), the audio lead (one audio frame short of a segment boundary, the hints'
    /// `audioFrame`) and the run-ahead limit, each when the profile has it.
    public func configure(_ engine: inout SimulationEngine, hints: PlayerPreset.ManifestHints?) {
        engine.videoUnderflowGrace = videoUnderflowGrace ?? 0
        if let lead = audioLeadOverVideo {
            engine.scheduleAudio(leadOverVideo: lead, shortfall: hints?.audioFrame ?? 0)
        }
        if let segments = audioRunAheadSegments { engine.limitAudioRunAhead(segments: segments) }
    }
}
