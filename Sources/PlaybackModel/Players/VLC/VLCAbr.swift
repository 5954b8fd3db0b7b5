/// VLC 3.0's adaptive module (HLS and DASH) with its default logic, NearOptimal, as Debian's 3.0.24 runs
/// it. Paths and lines are in upstream's 3.0.x commit 426513d88e3e, `modules/demux/adaptive/`
/// (docs/players/gstreamer-vlc-sources.md says why that revision and what was checked against 3.0.24).
///
/// - Default logic (`PlaylistManager.cpp` 850-859): NearOptimal, a BOLA
///   (`logic/NearOptimalAdaptationLogic.cpp` 38-44).
/// - First choice (`NearOptimalAdaptationLogic.cpp` 121-131, `logic/Representationselectors.cpp` 91-116):
///   the highest variant whose bit rate is strictly below the available estimate, the lowest when none is;
///   before any download the estimate is 0, so the lowest.
/// - Later choices: BOLA's score (V x (ln(bitrate) + gamma) - Q) / bitrate (`:67-86`, `:162-173`) is
///   computed by a helper taking V and Q as integers (`NearOptimalAdaptationLogic.hpp` 60-62) from floats
///   in seconds (`:135-136`): V, under 1 for any real ladder, truncates to 0 and every score to
///   -Q / bitrate, whose largest is the highest variant (all tie at Q = 0 and the ascending loop keeps the
///   last, `argmax <= arg`, `:78`). So the highest variant for every segment after the first, whatever the
///   link; the down-switch guard (`:137-153`) never runs. Measured: `022222222222222` in all 12 cases of
///   the first ladder (3.0.24).
/// - Estimator (`http/Chunk.cpp` 275, 405-439; `tools/MovingAverage.hpp` 46, 66-88): one sample per
///   segment, bytes x 8 over request to last byte, into a "vertical horizontal filter" moving average of
///   the last 10 samples. It only decides the first choice, where it has no sample yet; kept for the
///   reports.
/// - A download is never abandoned; the choice is made at each segment boundary
///   (`SegmentTracker.cpp` 246-280).
public struct VLCAbr: PlayerAbrModel {
    /// `MovingAverage`'s window, samples (`tools/MovingAverage.hpp` 46).
    public static let window = 10
    /// The VHF's weight factor (`tools/MovingAverage.hpp` 66-88).
    public static let vhfFactor = 0.33

    /// The samples in the window, oldest first, and the one that left it last (the VHF's first difference
    /// starts from it).
    private var samples: [Double] = []
    private var departed: Double?
    /// The smoothed estimate, bits per second; 0 before the first sample.
    public private(set) var estimate = 0.0
    /// Whether the first choice was made.
    private var chosen = false

    /// The model with VLC 3.0's defaults.
    public init() {}

    /// `vlc`.
    public var name: String { "vlc" }

    /// The values reports show.
    public var parameters: [String: Double] {
        ["moving_average_window": Double(Self.window), "vhf_factor": Self.vhfFactor]
    }

    /// The lowest variant (or the highest strictly below the estimate) for the first segment, the highest
    /// for every later one.
    public mutating func choose(_ context: PlayerAbrContext) -> AbrDecision {
        let top = max(context.bitRates.count - 1, 0)
        guard chosen else {
            chosen = true
            let below = context.bitRates.lastIndex(where: { $0 < estimate }) ?? 0
            return AbrDecision(
                variant: below,
                reason: "vlc: first choice below the \(wholeNumber(estimate / 1000)) kbit/s estimate")
        }
        return AbrDecision(variant: top, reason: "vlc: NearOptimal's integer scores pick the highest")
    }

    /// A sample per segment, bytes x 8 over request to last byte, into the VHF moving average.
    public mutating func recordDownload(_ download: PlayerAbrDownload) {
        let seconds = download.latency + download.transfer
        guard !download.abandoned, download.bytes > 0, seconds > 0 else { return }
        push(8 * Double(download.bytes) / seconds)
    }

    /// `MovingAverage::push`: the first sample whole; then alpha x the previous estimate + (1 - alpha) x
    /// the sample, alpha = 0.33 x (max - min) / (sum of the consecutive differences, from the sample that
    /// left the window), or 0.5 when that sum is 0.
    mutating func push(_ sample: Double) {
        if samples.count == Self.window { departed = samples.removeFirst() }
        samples.append(sample)
        guard samples.count > 1 || departed != nil else {
            estimate = sample
            return
        }
        var previous = departed ?? samples[0]
        var variation = 0.0
        for value in samples {
            variation += abs(value - previous)
            previous = value
        }
        let spread = (samples.max() ?? 0) - (samples.min() ?? 0)
        let alpha = variation > 0 ? Self.vhfFactor * spread / variation : 0.5
        estimate = alpha * estimate + (1 - alpha) * sample
    }

    /// NearOptimal has no safety factor: `--abr-safety` does not change it.
    public func overriding(safetyFactor: Double?) -> VLCAbr { self }
}
