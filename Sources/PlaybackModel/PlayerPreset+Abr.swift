extension PlayerPreset {
    /// The player's own ABR logic on `simulate` (adaptive over any ladder without `--abr`), or `nil` for a
    /// preset that is a buffering rule only (then `simulate` plays one variant unless `--abr` is given).
    /// Each model lives in `Sources/PlaybackModel/Players/`.
    public var abr: PlayerAbr? {
        switch self {
        case .hlsjs: PlayerAbr(HlsjsAbr())
        case .dashjs: PlayerAbr(DashjsAbr())
        case .shaka: PlayerAbr(ShakaAbr())
        default: nil
        }
    }
}
