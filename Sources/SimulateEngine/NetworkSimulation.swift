// The library face of `simulate`: a Swift program calls this instead of running the binary. Each call runs
// the same plan, engine and report the command does, so the typed figures and the `json` document are the
// command's own; nothing here restates a rule.
public import PlaybackModel
import BufprobeOutput
import InputReading
import MediaIO

/// Playing media over a simulated network from Swift: what `bufprobe simulate` does, in virtual time.
///
/// ```swift
/// let run = try await NetworkSimulation.simulate("clip.mp4", bandwidth: 2_000_000, latency: 0.04)
/// print(run.startupDelay, run.stalls.count, run.rebufferRatio)
/// ```
public enum NetworkSimulation {
    /// Downloads `media` (a local file, local HLS playlist or DASH manifest) over a network of constant
    /// `bandwidth` with `latency` per request, plays it with `policy`, and reports startup delay and
    /// stalls: `bufprobe simulate MEDIA --bandwidth B --latency L` (ranges download, first variant).
    ///
    /// The media is read on a thread of its own, not on Swift's cooperative pool.
    ///
    /// - Parameters:
    ///   - media: The path of the media.
    ///   - bandwidth: Bits per second, more than 0.
    ///   - latency: Seconds from each request to its first byte, 0 or more.
    ///   - policy: The player's buffer policy; `BufferPolicy.default` is the command's default.
    /// - Throws: `SimulationError` when the media cannot be read or a value is not usable.
    public static func simulate(
        _ media: String, bandwidth: Double, latency: Double = 0, policy: BufferPolicy = .default
    ) async throws(SimulationError) -> SimulationSummary {
        LibrarySetup.once()
        let outcome = await BlockingThread.run(name: "bufprobe simulate") {
            run(media, bandwidth: bandwidth, latency: latency, policy: policy)
        }
        return try outcome.get()
    }

    /// The command's plan, engine and report for these values.
    private static func run(
        _ media: String, bandwidth: Double, latency: Double, policy: BufferPolicy
    ) -> Result<SimulationSummary, SimulationError> {
        // The values read as the command reads its words, with the same grammar and checks. A Double's
        // description reads back as the same Double; the bandwidth is in bits per second by the parameter's
        // type, so it is written with its unit (the command refuses a unit-less 500).
        var options = SimulationOptions()
        options.media = media
        do {
            options.bandwidth = try BitRate(parsingAsMeant: "\(bandwidth)bit", zero: BitRate.zeroBandwidth)
        } catch {
            return .failure(SimulationError(description: "bandwidth: \(error)"))
        }
        do {
            options.latency = try Seconds(parsing: "\(latency)")
        } catch {
            return .failure(SimulationError(description: "latency: \(error)"))
        }
        var plan: SimulationPlan
        do {
            plan = try SimulationPlan(options: options)
        } catch {
            return .failure(SimulationError(description: error.sentence))
        }
        do {
            try policy.validate()
        } catch {
            return .failure(SimulationError(description: "the buffer policy is not usable: \(error)"))
        }
        plan.policy = policy
        var engine = plan.makeEngine()
        engine.run()
        let report = plan.report(of: engine)
        let json = (try? JSONOutput.string(report)) ?? ""
        return .success(SimulationSummary(report, qoe: engine.result.report, json: json + "\n"))
    }
}

/// Why `NetworkSimulation.simulate` could not run.
public struct SimulationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// bufprobe's sentence, the one `bufprobe simulate` prints for the same media and values.
    public var description: String
}

/// The outcome of `NetworkSimulation.simulate`: startup delay, stalls and the whole `--json` document.
public struct SimulationSummary: Sendable, Hashable {
    /// Whether playback ever started.
    public var started: Bool
    /// Seconds from pressing play to the first frame (rounded to the microsecond, as in `json`).
    public var startupDelay: Double
    /// Every stall: media position, session time it began, seconds it lasted (rounded as in `json`).
    public var stalls: [QoEReport.Stall]
    /// Seconds spent stalled in total.
    public var stallTime: Double
    /// Stall time over stall time plus playing time; `nil` when playback never started.
    public var rebufferRatio: Double?
    /// Whether playback reached the end of the media.
    public var ended: Bool
    /// Session time when the simulation stopped, seconds.
    public var sessionTime: Double
    /// The player's own QoE report, unrounded: every second of the session in one bucket.
    public var qoe: QoEReport
    /// The document `bufprobe simulate --json` writes for the same media and values, trailing newline
    /// included.
    public var json: String

    init(_ report: SimulateReport, qoe: QoEReport, json: String) {
        started = report.started
        startupDelay = report.startupDelay
        stalls = report.stalls
        stallTime = report.stallTime
        rebufferRatio = report.rebufferRatio
        ended = report.ended
        sessionTime = report.sessionTime
        self.qoe = qoe
        self.json = json
    }
}
