import Foundation
package import PlaybackModel
import InputReading

/// Everything a simulation needs, merged from the script and the command line (the command line wins),
/// with the media loaded and every value checked.
package struct SimulationPlan {
    /// A reason the simulation cannot run: one sentence and the exit code (2 media, 64 usage or script).
    package struct Failure: Error {
        /// One sentence naming the input, the option or the script line.
        package var sentence: String
        /// 2 when the media cannot be read, 64 for a mistake in the options or the script.
        package var exitCode: Int32
    }

    /// What was asked.
    package var options: SimulationOptions
    /// The media loaded.
    package var source: SimulationSource
    /// The network: a constant rate or a trace, with its latency.
    package var network: NetworkModel
    /// The network as the report states it.
    package var networkEcho: SimulateReport.Network
    /// The player's buffer policy, checked.
    package var policy: BufferPolicy
    /// The script's timeline.
    package var steps: [SimulationStep]
    /// Whether the session starts playing (a script's `autoplay: false` opens it paused).
    package var autoplay: Bool
    /// The adaptive rule, with `source.ladder`; `nil` for one variant.
    package var rule: AbrRule?
    /// The session already run beside the file's reading (`SimulationOptions.runsAhead`), when its run is
    /// the one the loaded media gives; `nil` otherwise. It is the plan's session as built: `runToEnd()`
    /// returns it, and a caller that changes the plan afterwards makes a new engine.
    package var finishedEngine: SimulationEngine?

    /// Reads the script, merges it under `options`, loads the media and checks every value.
    package init(options: SimulationOptions) throws(Failure) {
        self.options = options
        var script = SimulationScript()
        if let path = options.script {
            let data: Data
            do {
                data = try BoundedFile.read(path, limit: BoundedFile.scriptLimit)
            } catch .tooLarge(let limit) {
                throw Failure(
                    sentence: "the script \(path) is larger than \(BoundedFile.describe(limit)), the most a script may be.",
                    exitCode: 64)
            } catch {
                throw Failure(sentence: "the script \(path) cannot be read (check the path).", exitCode: 64)
            }
            do {
                script = try SimulationScript.parse(yaml: String(decoding: data, as: UTF8.self), file: path)
            } catch {
                throw Failure(sentence: error.description, exitCode: 64)
            }
        }
        let scriptDirectory = options.script.map { ($0 as NSString).deletingLastPathComponent }
        let resolve = { (path: String) -> String in Self.resolve(path, in: scriptDirectory) }

        // Media: the command line's file or synthetic description, else the script's.
        let bitrate = options.bitrate?.bitsPerSecond
        let length = options.duration?.value
        if options.media != nil || bitrate != nil || length != nil {
            script.media = nil
            script.synthetic = nil
        }
        if let bitrate, bitrate <= 0 { throw Failure(sentence: "--bitrate must be greater than 0.", exitCode: 64) }
        if let length, length <= 0 { throw Failure(sentence: "--duration must be greater than 0.", exitCode: 64) }
        // `--player`'s own ABR makes any master playlist or manifest adaptive; `--abr` requires one.
        let mediaPath = options.media ?? script.media.map(resolve)
        let playerAdaptive = options.playerModel != nil && mediaPath.map(SimulationSource.offersVariants) == true
        let adaptive = options.abr != nil || playerAdaptive
        let downloadMode = options.download ?? .ranges
        if adaptive, options.media == nil, script.media == nil {
            throw Failure(
                sentence: "--abr needs a local HLS master playlist or DASH manifest as the media, not synthetic media.",
                exitCode: 64)
        }
        // The network and the policy do not depend on a single file's packets: worked out first, a file's
        // simulation can run beside its reading (`SimulationRunAhead`). Their errors are thrown after the
        // media's, as before.
        let early = (
            network: Result { () throws(Failure) in try Self.network(options: options, script: script, resolve: resolve) },
            policy: try? Self.policy(options: options, script: script, hints: nil)
        )
        let earlySteps = script.timeline.map(\.step)
        let earlyAutoplay = script.autoplay ?? true
        var runAhead: (@Sendable (SimulationSource) -> SimulationEngine)?
        if options.runsAhead, case .success(let (network, _)) = early.network, let policy = early.policy {
            runAhead = { source in
                Self.makeEngine(
                    source: source, network: network, policy: policy, steps: earlySteps, autoplay: earlyAutoplay,
                    rule: nil, options: options)
            }
        }
        do {
            if let media = options.media {
                source = try SimulationSource.load(
                    media, variant: options.variant, adaptive: adaptive, download: downloadMode,
                    runAhead: runAhead)
            } else if bitrate != nil || length != nil {
                guard let bitrate, let length else {
                    throw Failure(sentence: "synthetic media needs both --bitrate and --duration.", exitCode: 64)
                }
                source = .synthetic(
                    bitsPerSecond: bitrate, duration: length, variation: options.variation ?? 0, seed: options.seed ?? 1)
            } else if let synthetic = script.synthetic {
                source = .synthetic(
                    bitsPerSecond: synthetic.bitsPerSecond, duration: synthetic.duration,
                    variation: options.variation ?? synthetic.variation, seed: options.seed ?? synthetic.seed)
            } else if let media = script.media {
                do {
                    source = try SimulationSource.load(
                        resolve(media), variant: options.variant, adaptive: adaptive, download: downloadMode,
                        runAhead: runAhead)
                } catch {
                    // Name the script line that chose the media.
                    let located = SimulationScriptError(
                        file: options.script ?? "script", line: script.lines["media"], field: "media",
                        reason: error.sentence)
                    throw SimulationSource.Failure(sentence: located.description, isUsage: error.isUsage)
                }
            } else {
                throw Failure(
                    sentence: "nothing to simulate: give MEDIA, --bitrate and --duration, or media: in a --script.",
                    exitCode: 64)
            }
        } catch let failure as SimulationSource.Failure {
            throw Failure(sentence: failure.sentence, exitCode: failure.isUsage ? 64 : 2)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(sentence: "\(error)", exitCode: 2)
        }

        // Network, as worked out before the media was read.
        (network, networkEcho) = try early.network.get()

        // Policy.
        let policy = try Self.policy(options: options, script: script, hints: source.manifestHints)
        self.policy = policy

        // Timeline: checks that need the media.
        let file = options.script ?? "script"
        for located in script.timeline {
            if case .seek(let offset) = located.step.action, offset > source.media.duration {
                throw Failure(
                    sentence: SimulationScriptError(
                        file: file, line: located.line, field: located.field,
                        reason: "seeks to \(Seconds(offset).description), past the end of the media (\(Seconds(source.media.duration).description))"
                    ).description, exitCode: 64)
            }
        }
        if let ladder = source.ladder {
            let label = options.variant ?? 0
            guard let index = ladder.index(ofLabel: label) else {
                throw Failure(
                    sentence: "\(source.description) has \(ladder.variants.count) variants (0 to \(ladder.variants.count - 1)); --variant \(label) is not one of them.",
                    exitCode: 64)
            }
            rule = options.rule(fixedVariant: index)
        }
        steps = earlySteps
        autoplay = earlyAutoplay
        // The run beside the reading (a single file: no ladder, so no rule) was given this network; it
        // stands when its policy, worked out before the manifest hints were known, is the plan's, and the
        // media it guessed is the media loaded.
        if let ahead = source.runAhead, early.policy == policy {
            finishedEngine = ahead.engine(for: source.media)
        }
        source.runAhead = nil
    }

    /// The network the options and the script give, and how the report states it.
    static func network(
        options: SimulationOptions, script: SimulationScript, resolve: (String) -> String
    ) throws(Failure) -> (NetworkModel, SimulateReport.Network) {
        let network: NetworkModel
        let bandwidth = options.bandwidth?.bitsPerSecond
        let latency = options.latency?.value ?? script.latency ?? 0
        let tracePath = options.trace ?? (bandwidth == nil ? script.trace.map(resolve) : nil)
        if let tracePath {
            do {
                network = NetworkModel(trace: try SimulationTraceFile.load(tracePath), latency: latency)
            } catch {
                guard options.trace == nil, let file = options.script else {
                    throw Failure(sentence: error.sentence, exitCode: 64)
                }
                let located = SimulationScriptError(
                    file: file, line: script.lines["network.trace"], field: "network.trace", reason: error.sentence)
                throw Failure(sentence: located.description, exitCode: 64)
            }
        } else if let rate = bandwidth ?? script.bandwidth {
            network = NetworkModel(bitsPerSecond: rate, latency: latency)
        } else {
            throw Failure(
                sentence: "no network given: use --bandwidth (e.g. 2Mbit), --trace FILE, or network: in a --script.",
                exitCode: 64)
        }
        // A Sabre trace's own latency_ms would silently win over a latency given beside it.
        if case .trace(let trace) = network.base, trace.carriesLatency, options.latency != nil || script.latency != nil {
            throw Failure(
                sentence: "the trace \(tracePath ?? "") gives each request its own latency (latency_ms), so --latency (or the script's network latency) cannot apply: drop one of them.",
                exitCode: 64)
        }
        let constrained = options.constrained || (script.constrained ?? false)
        let echo = SimulateReport.Network(
            bandwidth: tracePath == nil ? (bandwidth ?? script.bandwidth) : nil, trace: tracePath,
            latency: latency, constrained: constrained)
        return (network, echo)
    }

    /// The buffer policy the options and the script give over a player preset's, checked. A policy the
    /// preset derives from the media (Shaka's goals from a DASH manifest's `minBufferTime`) that cannot
    /// play is a property of the media and the preset, not a usage error: `derivedPolicyExitCode`. A policy
    /// that the user's own values break is a usage error (64), and its sentence says where a value the
    /// media set came from.
    static func policy(
        options: SimulationOptions, script: SimulationScript, hints: PlayerPreset.ManifestHints?
    ) throws(Failure) -> BufferPolicy {
        let derived = options.player?.policy(for: hints) ?? .default
        try checkDerived(derived, player: options.player)
        let constrained = options.constrained || (script.constrained ?? false)
        var scriptPolicy = derived
        if let value = script.startThreshold { scriptPolicy.startThreshold = value }
        if let value = script.resumeThreshold {
            scriptPolicy.resumeThreshold = value
            scriptPolicy.resumeGrowth = .fixed
        }
        if let value = script.maxBuffer { scriptPolicy.forwardTarget = value }
        if let value = script.backBuffer { scriptPolicy.backBuffer = value }
        let policy = options.policy(over: scriptPolicy, constrained: constrained)
        do {
            try policy.validate()
        } catch {
            // Only a value the user left to the preset has an origin worth naming.
            let given: [(BufferPolicyError.Setting, Bool)] = [
                (.startThreshold, options.startThreshold != nil || script.startThreshold != nil),
                (.resumeThreshold, options.resumeThreshold != nil || script.resumeThreshold != nil),
                (.forwardTarget, options.maxBuffer != nil || script.maxBuffer != nil || constrained),
            ]
            var origins: [BufferPolicyError.Setting: String] = [:]
            for (setting, byUser) in given where !byUser {
                origins[setting] = options.player?.profile.derivation(of: setting, hints: hints)
            }
            throw Failure(sentence: "the buffer policy is not usable: \(error.sentence(origins: origins))", exitCode: 64)
        }
        return policy
    }

    /// `simulate`'s exit code when the policy a player preset derives from the media cannot play it.
    package static let derivedPolicyExitCode: Int32 = 4

    /// Throws `derivedPolicyExitCode` with a sentence naming `player` when `derived`, the policy it took
    /// from the media before any option or script value, breaks a rule.
    package static func checkDerived(_ derived: BufferPolicy, player: PlayerPreset?) throws(Failure) {
        do {
            try derived.validate()
        } catch {
            throw Failure(
                sentence: "the \(player?.rawValue ?? "default") player's buffer policy for this media cannot play it: \(error)",
                exitCode: derivedPolicyExitCode)
        }
    }

    /// A path from the script, relative to the script's directory unless absolute, standard input or a
    /// protocol's input (`file:`, `concat:`, a URL: `InputKind`).
    static func resolve(_ path: String, in directory: String?) -> String {
        guard let directory, !directory.isEmpty, !path.hasPrefix("/"), InputKind(path) == .file(path: path) else { return path }
        return (directory as NSString).appendingPathComponent(path)
    }
}
