package import PlaybackModel

/// What a simulation is asked to do, one value per `bufprobe simulate` option (`nil`: not given), before a
/// script is merged in: `SimulationPlan` reads the script, loads the media and checks every value. The
/// command fills it from its options; `NetworkSimulation` from its parameters.
package struct SimulationOptions: Sendable {
    /// The media: a file, local HLS playlist or DASH manifest (`nil` with `bitrate`/`duration` or a script).
    package var media: String?
    /// A YAML or JSON script: media, network, policy, timeline.
    package var script: String?
    /// Synthetic media's total bit rate.
    package var bitrate: BitRate?
    /// Synthetic media's length.
    package var duration: Seconds?
    /// Synthetic video frame size variation, 0 to 1.
    package var variation: Double?
    /// Seed of the synthetic variation.
    package var seed: UInt64?
    /// The variant of a master playlist or DASH manifest, by its label (0 = first listed).
    package var variant: Int?
    /// Constant bandwidth.
    package var bandwidth: BitRate?
    /// Latency of each request.
    package var latency: Seconds?
    /// How an MP4 whose index follows the media is fetched; `nil` is `.ranges`.
    package var download: DownloadMode?
    /// A bandwidth trace file.
    package var trace: String?
    /// Whether a separate audio track (DASH audio set, HLS audio rendition) is fetched beside the video.
    package var audioTrack = true
    /// Whether the session will run to its end at once (not paced on the live line): a single file's
    /// simulation may then run beside its reading (`SimulationPlan.finishedEngine`).
    package var runsAhead = false
    /// A real player's buffering policy as the base the thresholds below override, and its own ABR.
    package var player: PlayerPreset?
    /// Buffered media needed to start, seconds; overrides the script's and the player's.
    package var startThreshold: Double?
    /// Buffered media needed to resume after a stall, seconds.
    package var resumeThreshold: Double?
    /// The forward-buffer target, seconds.
    package var maxBuffer: Double?
    /// Media kept behind the playhead, seconds.
    package var backBuffer: Double?
    /// A constrained (data-saver) network: the forward-buffer target drops.
    package var constrained = false
    /// The adaptive rule `--abr` names; `nil` without one. `.fixed`'s variant is not read: the plan fixes
    /// the ladder index of `variant`.
    package var abr: AbrRule?
    /// `--abr-safety`, applied to a player's own ABR too.
    package var abrSafety: Double?
    /// Whether a segment that will not arrive in time is dropped for a lower variant.
    package var abandon = false
    /// The QoE weight of switching (lambda); `nil` is 1.
    package var qoeSwitchWeight: Double?
    /// The QoE weight of a stalled second (mu, kbit/s); `nil` is the top variant's kbit/s.
    package var qoeStallWeight: Double?

    /// Options with nothing given.
    package init() {}

    /// The `player` preset's own ABR, which runs over a ladder when neither `abr` nor `variant` is given.
    package var playerModel: PlayerAbr? {
        guard abr == nil, variant == nil else { return nil }
        return player?.abr
    }

    /// The rule over a ladder, with `fixedVariant` (ascending index) for `fixed`: `abr`, else the player's
    /// own model (with `abrSafety` applied) when there is one, else `fixed`.
    func rule(fixedVariant: Int) -> AbrRule {
        if abr == nil, let playerModel { return .player(playerModel.overriding(safetyFactor: abrSafety)) }
        switch abr {
        case .none, .some(.fixed): return .fixed(variant: fixedVariant)
        case .some(let rule): return rule
        }
    }

    /// `base` with every threshold given here applied, then lowered for a constrained network when
    /// `constrained` (this value or the script's).
    func policy(over base: BufferPolicy, constrained scriptConstrained: Bool) -> BufferPolicy {
        let policy = base.overriding(
            startThreshold: startThreshold, resumeThreshold: resumeThreshold, forwardTarget: maxBuffer,
            backBuffer: backBuffer)
        return constrained || scriptConstrained ? policy.constrained() : policy
    }
}
