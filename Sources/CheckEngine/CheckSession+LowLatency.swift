import MediaIO

extension CheckSession {
    /// The LL-HLS path for the media playlist at `url` (the input's, or its chosen variant's), read before
    /// opening as `playlist`, when it applies (`LowLatencyPlayback.prepare`), feeding the check's latency
    /// watch (`live`): the start follows `--live-start`, with `PART-HOLD-BACK` for its default.
    func lowLatencyPlayback(url: String, playlist: HLSPlaylist) -> LowLatencyPlayback? {
        LowLatencyPlayback.prepare(
            url: url, playlist: playlist, source: source, settings: settings, interrupter: interrupter,
            now: { [weak self] in self?.now() ?? 0 }, feed: live)
    }

    /// Adds the `low_latency` section and its problems (as warnings) to `report`.
    func addLowLatency(_ playback: LowLatencyPlayback?, to report: inout CheckReport) {
        guard let playback, report.lowLatency == nil else { return }
        let section = playback.report()
        report.lowLatency = section
        report.warnings += section.events.map(\.message)
    }
}
