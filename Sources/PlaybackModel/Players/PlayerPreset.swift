/// The list of players `--player` names: each case is one real player, whose `profile` holds everything
/// bufprobe knows about it (its buffering policy mapped onto `BufferPolicy`, whose thresholds count media
/// loaded contiguously ahead of the playhead, its own ABR, its track schedule, its sources).
///
/// Each profile lives in `Sources/PlaybackModel/Players/<Player>/`. Adding a player adds a case here and
/// its profile in `profile`; `policy`, `policy(for:)` and `abr` only forward to the profile, for the
/// commands that need no more. The "Player presets" table of `docs/model.md` cites each value.
public enum PlayerPreset: String, Sendable, Hashable, CaseIterable {
    /// mpv 0.35+ with its defaults (`MpvProfile`).
    case mpv
    /// Chromium's `<video src>`, progressive (`ChromiumProfile`).
    case chromium
    /// Media3 ExoPlayer's `DefaultLoadControl` (`Media3Profile`), the same values as `BufferPolicy.default`.
    case media3
    /// hls.js on Chromium, with its own ABR on `simulate` (`HlsjsProfile`).
    case hlsjs
    /// Shaka Player 3.1 on Chromium, with its own ABR on `simulate` (`ShakaProfile`).
    case shaka
    /// dash.js 5.1.1 on Chromium, with its own ABR on `simulate` (`DashjsProfile`).
    case dashjs
    /// AVPlayer with `automaticallyWaitsToMinimizeStalling` (`AVPlayerProfile`).
    case avplayer
    /// GStreamer 1.22's playbin3 with hlsdemux2, with its own ABR on `simulate` (`GStreamerProfile`).
    case gstreamer
    /// VLC 3.0's adaptive module, with its own ABR on `simulate` (`VLCProfile`).
    case vlc

    /// Everything about the player.
    public var profile: any PlayerProfile {
        switch self {
        case .mpv: MpvProfile()
        case .chromium: ChromiumProfile()
        case .media3: Media3Profile()
        case .hlsjs: HlsjsProfile()
        case .shaka: ShakaProfile()
        case .dashjs: DashjsProfile()
        case .avplayer: AVPlayerProfile()
        case .gstreamer: GStreamerProfile()
        case .vlc: VLCProfile()
        }
    }

    /// The player whose name or one of whose aliases is `name`, in any case (`exoplayer` is `media3`).
    public init?(name: String) {
        let name = name.lowercased()
        guard let preset = Self.allCases.first(where: { $0.rawValue == name || $0.profile.aliases.contains(name) })
        else { return nil }
        self = preset
    }

    /// The profile's policy (`PlayerProfile.policy`).
    public var policy: BufferPolicy { profile.policy }

    /// The profile's policy for media whose manifest gives `hints` (`PlayerProfile.policy(for:)`).
    public func policy(for hints: ManifestHints?) -> BufferPolicy { profile.policy(for: hints) }

    /// The player's own ABR on `simulate`, or `nil` for a buffering rule only (`PlayerProfile.abr`).
    public var abr: PlayerAbr? { profile.abr }

    /// `--player`'s help discussion: one line per player (`PlayerProfile.helpLine`), then where the
    /// values, the players' own ABR (simulate) and the measurements are.
    public static var helpDiscussion: String {
        allCases.map(\.profile.helpLine).joined(separator: "\n")
            + "\nValues and each player's own ABR: docs/model.md (Player presets); the agreement:"
            + " Benchmarks/README.md (webplayers.sh, run of 2026-11-28)."
    }
}
