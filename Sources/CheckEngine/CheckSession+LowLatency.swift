import MediaIO

extension CheckSession {
    /// The LL-HLS path for this check's input, when it applies (`LowLatencyPlayback.prepare`), feeding the
    /// check's live-edge tracker.
    func lowLatencyPlayback() -> LowLatencyPlayback? {
        LowLatencyPlayback.prepare(
            source: source, settings: settings, interrupter: interrupter, now: { [weak self] in self?.now() ?? 0 },
            feed: nil)
    }

    /// Adds the `low_latency` section and its problems (as warnings) to `report`.
    func addLowLatency(_ playback: LowLatencyPlayback?, to report: inout CheckReport) {
        guard let playback else { return }
        let section = playback.report()
        report.lowLatency = section
        report.warnings += section.events.map(\.message)
    }
}
