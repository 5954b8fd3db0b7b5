import MediaIO

/// `--all-variants`: every variant of an HLS master (`VariantProber`) or every video representation of a
/// DASH manifest (`DASHVariantProber`) validated once, after the player's last word (validating takes wall
/// time no player waits through).
enum AllVariants {
    /// Validates the variants of `source`, read as `format` (FFmpeg's demuxer; `nil` when it never opened:
    /// then as its name says), and returns the outcome as the machine takes it. An input FFmpeg read as
    /// something else has none (a progressive file is never downloaded again as a playlist). `root` is
    /// cancelled with the check, `pacer` the check's interrupter; `clock` read `started` when the check
    /// began, at `unixAtStart` on the wall clock (Unix seconds).
    static func validate(
        source: String, format: String?, settings: CheckSettings, root: Interrupter, pacer: Interrupter, clock: any CheckClock,
        started: Double, unixAtStart: Double
    ) -> CheckEvent {
        let outcome: VariantProber.Outcome
        switch format.map(ContainerFormat.init(demuxer:)) ?? ContainerFormat(namedBy: source) {
        case .dash:
            outcome = DASHVariantProber(
                source: source, options: settings.formatOptions, timeout: settings.timeout,
                segments: settings.allVariantsSegments, root: root, pacer: pacer, budget: settings.allVariantsBudget,
                clock: clock, unixNow: { unixAtStart + clock.now() - started },
                bandwidthTolerance: settings.thresholds.maxPeakOverBandwidth
            ).run()
        case .hls:
            outcome = VariantProber(
                source: source, options: settings.formatOptions, timeout: settings.timeout,
                segments: settings.allVariantsSegments, root: root, pacer: pacer,
                budget: settings.allVariantsBudget, clock: clock, bandwidthTolerance: settings.thresholds.maxPeakOverBandwidth
            ).run()
        default:
            return .variantsValidated([], warnings: [CheckSentence.noVariants(source)])
        }
        return .variantsValidated(outcome.checks, warnings: outcome.warnings)
    }
}
