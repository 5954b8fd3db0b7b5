import PlaybackModel
import SimulateEngine

/// What `simulate`'s options ask of the engine.
extension Simulate {
    /// The command line as the engine's options: each value given, `nil` for each left out.
    var engineOptions: SimulationOptions {
        var options = SimulationOptions()
        options.media = media
        options.script = script
        options.bitrate = bitrate
        options.duration = duration
        options.variation = variation
        options.seed = seed
        options.variant = variant
        options.bandwidth = bandwidth
        options.latency = latency
        options.download = download?.mode
        options.trace = trace
        options.audioTrack = !noAudioTrack
        options.player = policyOptions.player
        options.startThreshold = policyOptions.startThreshold?.value
        options.resumeThreshold = policyOptions.resumeThreshold?.value
        options.maxBuffer = policyOptions.maxBuffer?.value
        options.backBuffer = policyOptions.backBuffer?.value
        options.constrained = policyOptions.constrained
        options.abr = abrOptions.rule
        options.abrSafety = abrOptions.abrSafety
        options.abandon = abrOptions.abandon
        options.qoeSwitchWeight = abrOptions.qoeSwitchWeight
        options.qoeStallWeight = abrOptions.qoeStallWeight
        return options
    }
}
