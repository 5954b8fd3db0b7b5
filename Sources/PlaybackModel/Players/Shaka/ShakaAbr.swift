#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Shaka Player 3.1's ABR as the build in `../shared/webplayers/shaka-player.compiled.js` runs it
/// (shaka-project/shaka-player at af889ec692d2c2d78f7ce82522a36708918cf540, 3.1.0-pre). Paths and lines
/// below are in that commit's `lib/`.
///
/// - Default estimate (`abr/simple_abr_manager.js` 202-215, `util/player_configuration.js` 37, 199-205):
///   `navigator.connection.downlink` x 1e6 when the browser has it (`useNetworkInformation` true), else
///   `defaultBandwidthEstimate` 1 Mbit/s. Debian's headless Chromium reports `downlink` 1.5 (measured, a
///   fresh profile, loopback only), so 1.5 Mbit/s.
/// - Choice (`chooseVariant`, simple_abr_manager.js 65-115): over the variants by ascending bit rate, the
///   last one whose range holds the estimate: from its bit rate / 0.95 (`bandwidthDowngradeTarget`) to the
///   next one's / 0.85 (`bandwidthUpgradeTarget`); the lowest when none does.
/// - Estimator (`abr/ewma_bandwidth_estimator.js` 21-114, `abr/ewma.js`): a progress sample (bytes over the
///   milliseconds since the last one, `net/http_fetch_plugin.js` 146-156: one when more than 100 ms have
///   passed, and one at the end; the first counts from the request; the bytes are those the download's
///   arrival curve brought in those milliseconds, so a link slowing within a segment shows) goes into a
///   fast (2 s) and a slow (5 s) EWMA weighted by its seconds, unless it is under 16 kB (`minBytes_`);
///   until 128 kB were sampled (`minTotalBytes_`) the estimate is the default one; then the lower of the
///   two, bias-corrected.
/// - Switch (`segmentDownloaded`, `suggestStreams_`, 128-199): after every progress sample; the first time
///   the estimate is good, at once; then only when `switchInterval` 8 s have passed since the last choice.
/// - No abandonment: Shaka 3.1 lets a segment request finish.
///
/// Not modelled: a variant's bit rate in Shaka is video plus audio; the ladder here has the video's.
public struct ShakaAbr: PlayerAbrModel {
    /// The estimate before 128 kB are sampled, bits per second (Chromium's `navigator.connection.downlink`
    /// 1.5 Mbit/s, measured; Shaka's own default, 1e6, applies where the browser has no `downlink`).
    public var defaultEstimate = 1_500_000.0
    /// `bandwidthUpgradeTarget` and `bandwidthDowngradeTarget` (player_configuration.js 204-205).
    public var upgradeTarget = 0.85, downgradeTarget = 0.95
    /// `switchInterval`, seconds (player_configuration.js 203).
    public var switchInterval = 8.0
    /// The EWMAs' half-lives, seconds (ewma_bandwidth_estimator.js 27, 34).
    public static let fastHalfLife = 2.0, slowHalfLife = 5.0
    /// `minTotalBytes_` and `minBytes_` (ewma_bandwidth_estimator.js 52, 65).
    public static let minimumTotalBytes = 128e3, minimumSampleBytes = 16e3
    /// The least time between two progress samples of a fetch, seconds (http_fetch_plugin.js 151).
    public static let progressInterval = 0.1

    private var fast = HalfLifeEwma(halfLife: fastHalfLife), slow = HalfLifeEwma(halfLife: slowHalfLife)
    /// `bytesSampled_`.
    private var bytesSampled = 0.0
    /// `startupComplete_`.
    private var startupComplete = false
    /// `lastTimeChosenMs_`, session seconds; `nil` before the first choice.
    private var lastTimeChosen: Double?
    /// The variant chosen last, `nil` before the first choice.
    private var chosen: Int?
    /// The ladder's bit rates, as the first choice saw them.
    private var bitRates: [Double] = []

    /// The model with Shaka's defaults on Chromium.
    public init() {}

    /// `shaka`.
    public var name: String { "shaka" }

    /// The values reports show.
    public var parameters: [String: Double] {
        [
            "default_estimate": defaultEstimate, "upgrade_target": upgradeTarget,
            "downgrade_target": downgradeTarget, "switch_interval": switchInterval,
            "ewma_fast_half_life": Self.fastHalfLife, "ewma_slow_half_life": Self.slowHalfLife,
            "min_sample_bytes": Self.minimumSampleBytes, "min_total_bytes": Self.minimumTotalBytes,
        ]
    }

    /// `getBandwidthEstimate`: the default until 128 kB were sampled, then the lower EWMA.
    public var estimate: Double {
        guard bytesSampled >= Self.minimumTotalBytes else { return defaultEstimate }
        return min(fast.estimate, slow.estimate)
    }

    /// `chooseVariant` over `bitRates` (ascending) at `estimate`.
    func variant(for estimate: Double, in bitRates: [Double]) -> Int {
        var chosen = 0
        for index in bitRates.indices {
            let lower = bitRates[index] / downgradeTarget
            let upper = (index + 1 < bitRates.count ? bitRates[index + 1] : .infinity) / upgradeTarget
            if estimate >= lower && estimate <= upper { chosen = index }
        }
        return chosen
    }

    public mutating func choose(_ context: PlayerAbrContext) -> AbrDecision {
        if let chosen { return AbrDecision(variant: chosen, reason: "shaka: \(wholeNumber(estimate / 1000)) kbit/s estimate") }
        bitRates = context.bitRates
        let first = variant(for: estimate, in: bitRates)
        chosen = first
        lastTimeChosen = context.time
        return AbrDecision(variant: first, reason: "shaka: default estimate \(wholeNumber(estimate / 1000)) kbit/s")
    }

    /// `segmentDownloaded` for one progress sample of `bytes` over `seconds`, ending at session time `time`.
    mutating func sample(bytes: Double, seconds: Double, at time: Double) {
        if bytes >= Self.minimumSampleBytes, seconds > 0 {
            let bitsPerSecond = 8 * bytes / seconds
            bytesSampled += bytes
            fast.sample(weight: seconds, value: bitsPerSecond)
            slow.sample(weight: seconds, value: bitsPerSecond)
        }
        guard let last = lastTimeChosen, !bitRates.isEmpty else { return }
        if !startupComplete {
            guard bytesSampled >= Self.minimumTotalBytes else { return }
            startupComplete = true
        } else if time - last < switchInterval {
            return
        }
        chosen = variant(for: estimate, in: bitRates)
        lastTimeChosen = time
    }

    /// Reads the arrival curve: a progress sample holds the bytes that came in its 100 ms, and the link's
    /// rate changes within a segment.
    public var needsArrival: Bool { true }

    /// The download's progress samples: one each 100 ms from the request, the last at its end, each of the
    /// bytes its arrival curve says came in it (without a curve, the bytes spread evenly over the transfer).
    public mutating func recordDownload(_ download: PlayerAbrDownload) {
        let end = download.time
        let firstByte = end - download.transfer
        let start = firstByte - download.latency
        let bytes = Double(download.bytes)
        // Without a recorded curve, the bytes at one rate from the first byte to the last.
        let curve =
            download.arrival.count > 1
            ? download.arrival : [.init(time: firstByte, bytes: 0), .init(time: end, bytes: bytes)]
        var corner = 0
        func arrived(by time: Double) -> Double {
            // Asked at increasing times: the corner before `time` only moves on.
            while corner + 1 < curve.count - 1, curve[corner + 1].time <= time { corner += 1 }
            let from = curve[corner], to = curve[corner + 1]
            let part =
                time <= from.time ? from.bytes
                : to.time <= from.time || time >= to.time ? to.bytes
                : from.bytes + (to.bytes - from.bytes) * (time - from.time) / (to.time - from.time)
            return min(max(part, 0), bytes)
        }
        var last = start
        var step = 1
        while start + Double(step) * Self.progressInterval < end {
            let time = start + Double(step) * Self.progressInterval
            sample(bytes: arrived(by: time) - arrived(by: last), seconds: time - last, at: time)
            last = time
            step += 1
        }
        sample(bytes: bytes - arrived(by: last), seconds: end - last, at: end)
    }

    public func overriding(safetyFactor: Double?) -> ShakaAbr {
        var model = self
        if let safetyFactor {
            model.upgradeTarget = safetyFactor
            model.downgradeTarget = safetyFactor
        }
        return model
    }
}
