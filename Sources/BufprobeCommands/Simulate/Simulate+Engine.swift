import Foundation
import MediaIO
import PlaybackModel
import ProgressLine
import CheckEngine

/// How `simulate` builds its engine and names its source.
extension Simulate {
    /// The live line's and the plot's title: the media file's name (a description's rates hold slashes,
    /// and the line's legend shows a ladder's rates), or the synthetic description.
    func title(of source: SimulationSource) -> String {
        guard source.kind != "synthetic" else { return source.description }
        let path = source.description.components(separatedBy: " (").first ?? source.description
        return InputKind.title(of: path)
    }

    /// The `--player` preset's own ABR, which runs over a ladder when neither `--abr` nor `--variant` is
    /// given.
    var playerModel: PlayerAbr? {
        guard abrOptions.abr == nil, variant == nil else { return nil }
        return policyOptions.player?.abr
    }

    /// A fresh engine for `plan`: over the ladder with `--abr` (or a player's own ABR), else the one variant;
    /// with the `--player` preset's video-underflow grace and audio schedule (lead or run-ahead) when a separate audio track is fetched.
    func makeEngine(_ plan: SimulationPlan) -> SimulationEngine {
        let audio = noAudioTrack ? nil : plan.source.audio
        var engine: SimulationEngine
        if let ladder = plan.source.ladder, let rule = plan.rule {
            engine = SimulationEngine(
                ladder: ladder, rule: rule, network: plan.network, policy: plan.policy, steps: plan.steps,
                autoplay: plan.autoplay, abandon: abrOptions.abandon, audio: audio)
        } else {
            engine = SimulationEngine(
                media: plan.source.media, network: plan.network, policy: plan.policy, steps: plan.steps,
                autoplay: plan.autoplay, audio: audio)
        }
        engine.videoUnderflowGrace = policyOptions.player?.videoUnderflowGrace ?? 0
        if let lead = policyOptions.player?.audioLeadOverVideo {
            engine.scheduleAudio(leadOverVideo: lead, shortfall: plan.source.manifestHints?.audioFrame ?? 0)
        }
        if let segments = policyOptions.player?.audioRunAheadSegments { engine.limitAudioRunAhead(segments: segments) }
        return engine
    }
}
