/// What an adaptive session played: time and bytes per variant, the switches, the average bit rate and a
/// QoE score.
///
/// Played time is counted per segment: the part of each segment between the media start and the final
/// playhead, at the variant last delivered for it (exact for a session without seeks back).
///
/// QoE is the linear one of Yin et al. ("A Control-Theoretic Approach for Dynamic Adaptive Video
/// Streaming over HTTP", SIGCOMM 2015), averaged per played segment as Pensieve reports it:
/// `qoe = (sum of q_k - switchWeight * sum of |q_k+1 - q_k| - stallWeight * stall seconds) / K`, with
/// `q_k` the declared bit rate of the k-th of the K played segments in kbit/s. Defaults: `switchWeight`
/// 1 and `stallWeight` the top variant's kbit/s (Yin et al.'s balanced weights).
public struct AbrSummary: Sendable, Hashable {
    /// One variant's share.
    public struct VariantUse: Sendable, Hashable {
        /// Position in the master playlist.
        public var label: Int
        /// Declared bit rate, bits per second.
        public var bitRate: Double
        /// Media seconds played at this variant.
        public var playedTime: Double
        /// Bytes of the played parts (each segment's bytes in proportion to the part played).
        public var playedBytes: Int64
        /// Segments downloaded whole at this variant.
        public var segments: Int
        /// Bytes of those segments, and of the variant's initialization segment once it was fetched.
        public var bytes: Int64
    }

    /// The linear QoE and its terms.
    public struct QoE: Sendable, Hashable {
        /// The score, kbit/s per segment.
        public var score: Double
        /// Mean declared bit rate of the played segments, kbit/s.
        public var averageBitRate: Double
        /// Sum of |q_k+1 - q_k| over the played segments divided by K, kbit/s.
        public var switchMagnitude: Double
        /// Seconds stalled.
        public var stallTime: Double
        /// K: segments played (in part or whole).
        public var segments: Int
        /// The weight of switching, λ.
        public var switchWeight: Double
        /// The weight of a stalled second, μ (kbit/s per second).
        public var stallWeight: Double
        /// The formula, in words.
        public static let formula =
            "(sum q_k - switch_weight * sum |q_k+1 - q_k| - stall_weight * stall_time) / K, q_k in kbit/s over the K played segments (Yin et al., SIGCOMM 2015)"
    }

    /// Per variant, ascending by bit rate.
    public var variants: [VariantUse]
    /// Every switch, in order.
    public var switches: [AbrSwitch]
    /// Mean declared bit rate over played time, bits per second.
    public var averageBitRate: Double
    /// The QoE score.
    public var qoe: QoE

    /// Summarises a finished adaptive session; `nil` without a ladder. `stallWeight` `nil` means the top
    /// variant's kbit/s.
    public init?(engine: SimulationEngine, switchWeight: Double = 1, stallWeight: Double? = nil) {
        guard let ladder = engine.ladder else { return nil }
        let playhead = engine.player.item.currentTime
        var uses = ladder.variants.enumerated().map { index, variant in
            VariantUse(
                label: variant.label, bitRate: variant.bitRate, playedTime: 0, playedBytes: 0,
                segments: engine.deliveredPerVariant.indices.contains(index) ? engine.deliveredPerVariant[index].segments : 0,
                bytes: engine.deliveredPerVariant.indices.contains(index) ? engine.deliveredPerVariant[index].bytes : 0)
        }
        var start = ladder.startTime
        var playedRates: [Double] = []
        for (index, duration) in ladder.durations.enumerated() {
            defer { start += duration }
            guard start < playhead, engine.deliveredVariants.indices.contains(index) else { continue }
            let variant = engine.deliveredVariants[index]
            guard uses.indices.contains(variant), duration > 0 else { continue }
            let played = min(playhead - start, duration)
            uses[variant].playedTime += played
            let bytes = ladder.variants[variant].segmentBytes[index]
            // At most `bytes`, which the loader bounds, so the conversion cannot trap.
            let share = min((Double(bytes) * played / duration).rounded(), Double(bytes))
            uses[variant].playedBytes += Int64(exactly: share) ?? bytes
            playedRates.append(ladder.variants[variant].bitRate / 1000)
        }
        variants = uses
        switches = engine.switches
        let playedTime = uses.reduce(0) { $0 + $1.playedTime }
        averageBitRate = playedTime > 0 ? uses.reduce(0) { $0 + $1.bitRate * $1.playedTime } / playedTime : 0
        let count = playedRates.count
        var magnitude = 0.0
        for (previous, next) in zip(playedRates, playedRates.dropFirst()) { magnitude += abs(next - previous) }
        let stallTime = engine.session.report.stallTime
        let mu = stallWeight ?? (ladder.bitRates.last ?? 0) / 1000
        let denominator = Double(max(count, 1))
        let score = (playedRates.reduce(0, +) - switchWeight * magnitude - mu * stallTime) / denominator
        qoe = QoE(
            score: score, averageBitRate: playedRates.reduce(0, +) / denominator,
            switchMagnitude: magnitude / denominator, stallTime: stallTime, segments: count,
            switchWeight: switchWeight, stallWeight: mu)
    }
}
