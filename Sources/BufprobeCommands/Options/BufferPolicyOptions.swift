public import ArgumentParser
public import PlaybackModel
import CheckEngine

/// The player's buffer policy on the command line, shared by `check` and `simulate`: a player preset,
/// start and resume thresholds, forward-buffer target, back buffer and the constrained (data-saver)
/// network. Each option left out keeps the value below it (a simulate script's, else the preset's, else
/// `BufferPolicy.default`).
public struct BufferPolicyOptions: ParsableArguments {
    /// `--player`: a real player's buffering policy as the base the other options override.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Play as a real player does (exoplayer = media3); --start-threshold, --resume-threshold, --max-buffer and --back-buffer override its values.",
            discussion: PlayerPreset.helpDiscussion, valueName: "name"),
        transform: BufferPolicyOptions.preset)
    public var player: PlayerPreset?

    /// `--start-threshold`.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Buffered media needed to start playing (default \(Seconds(BufferPolicy.default.startThreshold))).", valueName: "duration"),
        transform: Seconds.argument)
    public var startThreshold: Seconds?

    /// `--resume-threshold`.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Buffered media needed to resume after a stall (default \(Seconds(BufferPolicy.default.resumeThreshold))).", valueName: "duration"),
        transform: Seconds.argument)
    public var resumeThreshold: Seconds?

    /// `--max-buffer`.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Forward-buffer target: loading stops there (default \(Seconds(BufferPolicy.default.forwardTarget))).", valueName: "duration"),
        transform: Seconds.argument)
    public var maxBuffer: Seconds?

    /// `--back-buffer`.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Media kept behind the playhead (default \(Seconds(BufferPolicy.default.backBuffer))).", valueName: "duration"),
        transform: Seconds.argument)
    public var backBuffer: Seconds?

    /// `--constrained`.
    @Flag(help: ArgumentHelp("A constrained (data-saver) network: the forward-buffer target drops to \(Seconds(BufferPolicy.constrainedForwardTarget))."))
    public var constrained = false

    /// Creates the options with nothing given.
    public init() {}

    /// Parses `--player`'s value.
    static func preset(_ text: String) throws -> PlayerPreset {
        guard let preset = PlayerPreset(name: text) else {
            throw ValidationError("'\(text)' is not a player bufprobe knows; use one of \(PlayerPreset.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        return preset
    }

    /// The base policy: the `--player` preset's, else `BufferPolicy.default`.
    public var basePolicy: BufferPolicy { player?.policy ?? .default }

    /// `base` with every given option applied, then lowered for a constrained network when
    /// `constrained` (this flag or the script's); the caller validates the result.
    public func policy(over base: BufferPolicy? = nil, constrained scriptConstrained: Bool = false) -> BufferPolicy {
        let policy = (base ?? basePolicy).overriding(
            startThreshold: startThreshold?.value, resumeThreshold: resumeThreshold?.value,
            forwardTarget: maxBuffer?.value, backBuffer: backBuffer?.value)
        return constrained || scriptConstrained ? policy.constrained() : policy
    }
}
