import Foundation
import MediaIO
package import PlaybackModel
import InputReading

/// How a plan becomes a running engine and a report.
extension SimulationPlan {
    /// The live line's and the plot's title: the media file's name (a description's rates hold slashes,
    /// and the line's legend shows a ladder's rates), or the synthetic description.
    package var title: String {
        guard source.kind != "synthetic" else { return source.description }
        let path = source.description.components(separatedBy: " (").first ?? source.description
        return InputKind.title(of: path)
    }

    /// A fresh engine: over the ladder with a rule (`--abr` or a player's own ABR), else the one variant;
    /// set up by the player's profile (`PlayerProfile.configure(_:hints:)`: its video-underflow grace and
    /// audio schedule when a separate audio track is fetched).
    package func makeEngine() -> SimulationEngine {
        Self.makeEngine(
            source: source, network: network, policy: policy, steps: steps, autoplay: autoplay, rule: rule,
            options: options)
    }

    /// The session run to its end at once: the one run beside the reading when it stands
    /// (`finishedEngine`), else a fresh engine run now.
    package func runToEnd() -> SimulationEngine {
        if let finishedEngine { return finishedEngine }
        var engine = makeEngine()
        engine.run()
        return engine
    }

    /// `makeEngine()` from its parts: also for a run that starts before the plan is complete
    /// (`SimulationRunAhead`).
    static func makeEngine(
        source: SimulationSource, network: NetworkModel, policy: BufferPolicy, steps: [SimulationStep],
        autoplay: Bool, rule: AbrRule?, options: SimulationOptions
    ) -> SimulationEngine {
        let audio = options.audioTrack ? source.audio : nil
        // A player that loads its manifest over the link first (dash.js) sends no media request before then.
        var network = network
        let profile = options.player?.profile
        network.requestsHeldUntil = profile?.startDelay(hints: source.manifestHints, network: network) ?? 0
        var engine: SimulationEngine
        if let ladder = source.ladder, let rule {
            engine = SimulationEngine(
                ladder: ladder, rule: rule, network: network, policy: policy, steps: steps,
                autoplay: autoplay, abandon: options.abandon, audio: audio)
        } else {
            engine = SimulationEngine(
                media: source.media, network: network, policy: policy, steps: steps,
                autoplay: autoplay, audio: audio)
        }
        profile?.configure(&engine, hints: source.manifestHints)
        return engine
    }

    /// The report of a finished `engine`, with the `abr` object for a ladder.
    package func report(of engine: SimulationEngine) -> SimulateReport {
        var report = SimulateReport(
            result: engine.result, source: source, network: networkEcho, policy: policy, player: options.player)
        report.addTracks(of: engine, audio: source.audioDescription)
        if let rule,
            let summary = AbrSummary(
                engine: engine, switchWeight: options.qoeSwitchWeight ?? 1, stallWeight: options.qoeStallWeight)
        {
            report.abr = SimulateReport.Abr(
                rule: rule, summary: summary, abandon: options.abandon || engine.abandonsByItself,
                abandoned: engine.abandonedRequests,
                bolaBufferTarget: engine.bolaBufferTarget)
        }
        return report
    }

    /// The session drawn as SVG (`SimulationPlot`): a fresh engine run to the end, sampled as it goes.
    package func plot() -> String {
        var sampled = makeEngine()
        let average = source.media.duration > 0 ? Double(source.media.totalBytes) * 8 / source.media.duration : 0
        let ladder = source.ladder
        let samples = SimulationPlot.sample(&sampled) { engine in
            guard let ladder, ladder.variants.indices.contains(engine.currentVariant) else { return average }
            return ladder.variants[engine.currentVariant].bitRate
        }
        return SimulationPlot.svg(
            samples: samples, stalls: sampled.session.report.stalls, title: title,
            rateLabel: ladder == nil ? "media bit rate" : "variant fetched")
    }
}
