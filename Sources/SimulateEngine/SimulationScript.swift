package import PlaybackModel

/// A simulation script as written in YAML (or JSON): the media, the network, the buffer policy and the
/// timeline of what happens. Every field is optional; command-line options override the script's.
///
/// ```yaml
/// media: samples/h264-aac.mp4          # or: synthetic: { bitrate: 3Mbit, duration: 10m, variation: 0.2, seed: 7 }
/// network: { bandwidth: 2Mbit, latency: 40ms }   # or trace: samples/traces/3g.txt; constrained: true
/// policy: { start: 1s, resume: 2s, max_buffer: 50s, back_buffer: 0s }
/// timeline:
///   - { at: 30s, bandwidth: 500kbit }
///   - { at: 60s, outage: 10s }
///   - { at: 90s, seek: 2m }
///   - { at: 100s, pause: 5s }
///   - { at: 120s, rate: 1.5 }
///   - { at: 130s, latency: 100ms }
/// ```
///
/// `autoplay: false` opens the media paused (it preloads up to the forward target) until a
/// `- { at: 5s, play }` step.
package struct SimulationScript: Sendable, Hashable {
    /// Synthetic media described by the script.
    package struct Synthetic: Sendable, Hashable {
        /// Total bit rate in bits per second.
        package var bitsPerSecond: Double
        /// Length in seconds.
        package var duration: Double
        /// Relative video frame size variation, 0...1.
        package var variation: Double = 0
        /// Seed of the variation.
        package var seed: UInt64 = 1

        /// Describes synthetic media.
        package init(bitsPerSecond: Double, duration: Double, variation: Double = 0, seed: UInt64 = 1) {
            self.bitsPerSecond = bitsPerSecond
            self.duration = duration
            self.variation = variation
            self.seed = seed
        }
    }

    /// A script step with where it was written, so that checks needing the media (seek past the end) can
    /// still name the line.
    package struct LocatedStep: Sendable, Hashable {
        /// The step.
        package var step: SimulationStep
        /// The 1-based line of the step in the script.
        package var line: Int
        /// The field path, such as `timeline[2].seek`.
        package var field: String
    }

    /// Path of the media, relative to the script's directory when relative.
    package var media: String?
    /// Synthetic media instead of a file.
    package var synthetic: Synthetic?
    /// Constant bandwidth in bits per second.
    package var bandwidth: Double?
    /// Per-request latency in seconds.
    package var latency: Double?
    /// Path of a bandwidth trace, relative to the script's directory when relative.
    package var trace: String?
    /// Whether the network is constrained (data saver: a lower forward-buffer target).
    package var constrained: Bool?
    /// Start threshold in seconds of buffered media.
    package var startThreshold: Double?
    /// Resume-after-stall threshold in seconds.
    package var resumeThreshold: Double?
    /// Forward-buffer target in seconds.
    package var maxBuffer: Double?
    /// Media kept behind the playhead, in seconds.
    package var backBuffer: Double?
    /// The line of each file-naming field as written (`media`, `network.trace`), so that a file that
    /// cannot be used is reported at its line.
    package var lines: [String: Int] = [:]
    /// Whether playback starts by itself at session start (true by default); with false the player preloads
    /// until a `play` step.
    package var autoplay: Bool?
    /// The timeline, in the order written (the engine orders by time, keeping that order for equal times).
    package var timeline: [LocatedStep] = []

    /// An empty script: everything from the command line or the defaults.
    package init() {}
}
