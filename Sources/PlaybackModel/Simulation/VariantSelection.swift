/// The adaptive side of a `SimulationEngine` session over a ladder: the rule's variant for each segment
/// request, the abandonment of a segment that will not arrive before the buffer runs dry, and the tallies
/// the report shows (switches, the variant of each delivered segment, segments and bytes per variant).
/// It decides; the engine records the events and the downloader sends the requests.
struct VariantSelection: Sendable {
    /// Seconds between abandonment checks, and before the first one after the first byte (dash.js's
    /// AbandonRequestsRule waits 500 ms of a download before judging it).
    static let abandonInterval = 0.5

    /// A decision to drop the segment in flight.
    struct Abandonment: Sendable {
        /// The variant the segment is requested again at.
        var variant: Int
        /// Why, as the switch records it.
        var reason: String
    }

    /// The rule, with its throughput and latency samples.
    private(set) var controller: AbrController
    /// The ladder simulated.
    let ladder: SimulationLadder
    /// Per variant (ascending), its units.
    private let variantUnits: [[SimulationMedia.Unit]]
    /// The variant the rule chose last (`nil` before the first request).
    private var lastVariant: Int?
    /// Every change of variant, in order.
    private(set) var switches: [AbrSwitch] = []
    /// Segment requests abandoned for a lower variant.
    private(set) var abandonedRequests = 0
    /// Per segment, the ascending ladder index of the copy last delivered to the player (-1: none yet).
    private(set) var deliveredVariants: [Int]
    /// Per variant (ascending), segments and bytes delivered whole (bytes with the variant's
    /// initialization segment).
    private(set) var deliveredPerVariant: [(segments: Int, bytes: Int64)]

    /// Selection over `ladder` (`variantUnits` its variants' units, `segmentCount` segments each) by `rule`,
    /// for a player whose forward-buffer target is `forwardTarget`.
    init(
        ladder: SimulationLadder, rule: AbrRule, forwardTarget: Double, variantUnits: [[SimulationMedia.Unit]],
        segmentCount: Int
    ) {
        self.ladder = ladder
        self.variantUnits = variantUnits
        controller = AbrController(
            rule: rule, bitRates: ladder.bitRates, segmentDuration: ladder.segmentDuration,
            forwardTarget: forwardTarget)
        controller.firstListed = ladder.index(ofLabel: 0) ?? 0
        deliveredVariants = Array(repeating: -1, count: segmentCount)
        deliveredPerVariant = Array(repeating: (0, 0), count: ladder.variants.count)
    }

    /// Whether the rule is a player's own model (`AbrRule.player`).
    var isPlayerModel: Bool {
        if case .player = controller.rule { return true }
        return false
    }

    /// The rule's variant for the request of `segment` (of `segmentCount`) at session time `time`, with
    /// `buffer` seconds ahead; `switched` when it differs from the previous request's.
    mutating func choose(buffer: Double, segment: Int, segmentCount: Int, at time: Double) -> (
        variant: Int, switched: Bool
    ) {
        let decision = controller.choose(buffer: buffer, segment: segment, segmentCount: segmentCount, time: time)
        let chosen = min(max(decision.variant, 0), variantUnits.count - 1)
        var switched = false
        if let lastVariant, lastVariant != chosen {
            switches.append(AbrSwitch(time: time, segment: segment, from: lastVariant, to: chosen, reason: decision.reason))
            switched = true
        }
        lastVariant = chosen
        return (chosen, switched)
    }

    /// The delivered segment a fast switch goes back to (`PlayerAbrModel.fastSwitchLevel`; dash.js's
    /// `_prepareForFastQualitySwitch`, `streaming/StreamProcessor.js` 934-966 at af3cef0): right after the
    /// rule switched up, with the playhead at media time `playhead` and `buffer` seconds ahead, the segment
    /// (below `deliveredEnd`) holding the playhead plus the level's seconds, when its copy is of a lower
    /// variant and at least those seconds are buffered; `nil` otherwise (the new variant follows the buffer).
    func fastSwitchSegment(playhead: Double, buffer: Double, deliveredEnd: Int) -> Int? {
        guard let level = controller.playerFastSwitchLevel, let last = switches.last, last.to > last.from,
            last.to == lastVariant
        else { return nil }
        let ahead = level * ladder.segmentDuration
        let target = playhead + ahead
        let units = variantUnits[last.to]
        guard buffer >= ahead,
            let segment = units.indices.last(where: { units[$0].start <= target && target < units[$0].start + units[$0].duration }),
            segment < min(deliveredEnd, last.segment), deliveredVariants.indices.contains(segment),
            deliveredVariants[segment] >= 0, deliveredVariants[segment] < last.to
        else { return nil }
        return segment
    }

    /// The last switch's request went back to `segment` (a fast switch): it is the first at the new variant.
    mutating func noteReplacement(from segment: Int) {
        guard !switches.isEmpty else { return }
        switches[switches.count - 1].segment = segment
    }

    /// Seconds between abandonment checks of a segment in flight (and from its first byte to the first
    /// one): a player model's own (`PlayerAbrModel.abandonCheckInterval`), else `abandonInterval` when
    /// `requested` (`--abandon`); `nil`: no abandonment.
    func abandonCheckInterval(requested: Bool) -> Double? {
        if case .player = controller.rule { return controller.playerAbandonInterval }
        return requested ? Self.abandonInterval : nil
    }

    /// Whether segment `segment`, in flight at `variant` and judged by `progress`, is dropped for a lower
    /// variant. A player model judges by its own rule (`playing`: the viewer has not paused). Otherwise:
    /// when the bytes left, at the rate this request has had so far, would take longer than the
    /// `buffer` seconds ahead. The new variant is the highest lower one whose whole segment fits the buffer
    /// at that rate, else the lowest (as dash.js's AbandonRequestsRule and Sabre's abandonment). `time` is
    /// the session time of the check.
    mutating func abandonment(
        of progress: SimulationDownloader.Progress, variant: Int, segment: Int, buffer: Double, playing: Bool = true,
        at time: Double = 0
    ) -> Abandonment? {
        if case .player = controller.rule {
            let context = PlayerAbrContext(
                bitRates: controller.bitRates, firstListed: controller.firstListed,
                segmentDuration: ladder.durations.indices.contains(segment)
                    ? ladder.durations[segment] : ladder.segmentDuration,
                buffer: buffer, segment: segment, segmentCount: ladder.durations.count, time: time)
            let judged = PlayerAbrProgress(
                context: context, variant: variant, arrivedBytes: progress.arrivedBits / 8,
                totalBytes: progress.requestBits / 8, latency: progress.latency, elapsed: progress.elapsed,
                playing: playing)
            guard let decision = controller.playerAbandonment(judged), decision.variant < variant else { return nil }
            return Abandonment(variant: max(decision.variant, 0), reason: decision.reason)
        }
        let arrived = progress.arrivedBits
        let rate = arrived / progress.elapsed
        let left = rate > 0 ? (progress.requestBits - arrived) / rate : .infinity
        guard left > buffer else { return nil }
        var lower = 0
        for candidate in stride(from: variant - 1, through: 1, by: -1) {
            let unit = variantUnits[candidate][segment]
            let bits = Double(unit.byteEnd - unit.byteStart) * 8
            if rate > 0, bits / rate <= buffer {
                lower = candidate
                break
            }
        }
        let reason =
            "abandoned: \(Seconds((left * 1000).rounded() / 1000).description) left at \(BitRate(bitsPerSecond: rate).description) > \(Seconds((buffer * 1000).rounded() / 1000).description) buffered"
        return Abandonment(variant: lower, reason: reason)
    }

    /// Books an abandonment decided at session time `time`: the bits that came are a throughput sample,
    /// and the switch is recorded.
    mutating func noteAbandoned(
        _ abandonment: Abandonment, from variant: Int, segment: Int, progress: SimulationDownloader.Progress,
        at time: Double
    ) {
        let arrived = progress.arrivedBits
        if arrived.isFinite, arrived >= 8, arrived < 8e18 {
            controller.recordDownload(
                bytes: Int64(arrived / 8), transfer: progress.elapsed, latency: progress.latency, variant: variant,
                abandoned: true, time: time)
        }
        switches.append(
            AbrSwitch(time: time, segment: segment, from: variant, to: abandonment.variant, reason: abandonment.reason))
        lastVariant = abandonment.variant
        abandonedRequests += 1
    }

    /// Books whole segment `segment` of `bytes` handed to the player at `variant`, and the throughput its
    /// request measured; `time` is the session time it arrived, `arrival` its arrival curve when the
    /// player model reads one.
    mutating func noteDelivered(
        segment: Int, variant: Int, bytes: Int64, transfer: Double, latency: Double, at time: Double = 0,
        arrival: [PlayerAbrDownload.ArrivalPoint] = []
    ) {
        guard deliveredVariants.indices.contains(segment) else { return }
        deliveredVariants[segment] = variant
        deliveredPerVariant[variant].segments += 1
        deliveredPerVariant[variant].bytes += bytes
        controller.recordDownload(
            bytes: bytes, transfer: transfer, latency: latency, variant: variant, time: time, arrival: arrival)
    }

    /// Books the initialization segment of `variant`, of `bytes`.
    mutating func noteInitialization(variant: Int, bytes: Int64) {
        guard deliveredPerVariant.indices.contains(variant) else { return }
        deliveredPerVariant[variant].bytes += bytes
    }

    /// The viewer sought: the next request is for `segment`.
    mutating func noteSeek(segment: Int) {
        controller.noteSeek(segment: segment)
    }
}
