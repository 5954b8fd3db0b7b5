import MediaIO

extension CheckSession {
    /// The LL-HLS path for this check's input, when it applies (`LowLatencyPlayback.prepare`), feeding the
    /// check's latency watch (`live`): the start follows `--live-start`, with `PART-HOLD-BACK` for its default.
    func lowLatencyPlayback() -> LowLatencyPlayback? {
        let playback = LowLatencyPlayback.prepare(
            source: source, settings: settings, interrupter: interrupter, now: { [weak self] in self?.now() ?? 0 },
            feed: live)
        if playback != nil { live.liveStart(settings.liveStart.description) }
        return playback
    }

    /// Adds the `low_latency` section and its problems (as warnings) to `report`.
    func addLowLatency(_ playback: LowLatencyPlayback?, to report: inout CheckReport) {
        guard let playback, report.lowLatency == nil else { return }
        let section = playback.report()
        report.lowLatency = section
        report.warnings += section.events.map(\.message)
    }
}
