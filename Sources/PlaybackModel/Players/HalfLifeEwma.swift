import Foundation

/// The bias-corrected, weighted EWMA the web players estimate with (hls.js `utils/ewma.ts`, Shaka
/// `lib/abr/ewma.js`, dash.js's `ThroughputModel` EWMA): a sample of `weight` scales the old average by
/// `0.5^(weight / halfLife)`, and the estimate is divided by `1 - 0.5^(totalWeight / halfLife)` so the
/// first samples are not pulled towards the zero it starts from. What one unit of weight is (seconds of
/// transfer, a Gaussian weight of seconds, dash.js's 0.0015 per millisecond) is the player's.
struct HalfLifeEwma: Sendable, Hashable {
    /// `0.5^(1 / halfLife)`, the players' `alpha` (0 for a half-life that is not above 0).
    let alpha: Double
    /// The uncorrected average.
    private(set) var raw = 0.0
    /// The weight of every sample so far.
    private(set) var totalWeight = 0.0

    init(halfLife: Double) { alpha = halfLife > 0 ? exp(log(0.5) / halfLife) : 0 }

    mutating func sample(weight: Double, value: Double) {
        let adjusted = pow(alpha, weight)
        raw = value * (1 - adjusted) + adjusted * raw
        totalWeight += weight
    }

    /// The bias-corrected estimate (the raw average while no weight has been seen or `alpha` is 0).
    var estimate: Double {
        let zero = 1 - pow(alpha, totalWeight)
        return alpha > 0 && zero > 0 ? raw / zero : raw
    }
}
