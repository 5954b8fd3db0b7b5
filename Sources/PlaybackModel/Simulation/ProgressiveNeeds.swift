/// What a progressive download needs to play without a stall: the closed form of the simulator's
/// progressive case, shared with `probe`'s needs table so that both always agree.
///
/// The download fetches the resource in byte order from offset 0 at a constant `B` bits per second after
/// one request latency `L`. Unit `i` (a packet of a played stream) is complete at
/// `c(i) = L + 8 * byteEnd(i) / B`, where `byteEnd(i)` counts every byte before it (header, other
/// streams, container overhead), and is at least `SimulationMedia.indexByteEnd` (an index after the media
/// must be in first). Playback starting at wall time `D` reaches the unit's presentation time at
/// `D + (start(i) - mediaStart)`. Playback never stalls exactly when every unit is complete by then:
///
/// - minimum startup delay at bandwidth B: `D(B) = max(0, max_i(c(i) - (start(i) - mediaStart)))`;
/// - minimum bandwidth for startup delay D: `B(D) = max_i(8 * byteEnd(i) / (D + start(i) - mediaStart - L))`,
///   infinite when some denominator is not positive (that unit cannot arrive in time at any bandwidth).
///
/// `SimulationEngine` at constant bandwidth `B`, with a player that starts at wall time `t >= D(B)`, shows
/// no stall (its only extra tolerance is the model's range-merge tolerance, which can only make it
/// *more* lenient): that is the agreement rule, checked by the simulation tests.
public struct ProgressiveNeeds: Sendable, Hashable {
    /// Per played unit, bytes needed and its presentation offset from the media start, in download order.
    let byteEnds: [Double]
    let offsets: [Double]

    /// The needs of `media`'s progressive layout (a segmented media's units are its segments: the same
    /// formulas hold for one request per segment only without latency, so pass `latency: 0` there).
    public init(media: SimulationMedia) {
        var byteEnds: [Double] = []
        var offsets: [Double] = []
        byteEnds.reserveCapacity(media.units.count)
        offsets.reserveCapacity(media.units.count)
        let played = Set(media.playableStreams)
        for unit in media.units where unit.stream.map(played.contains) ?? true {
            byteEnds.append(Double(max(unit.byteEnd, media.indexByteEnd)))
            // Data before the start (encoder priming) is needed by the start, not before it.
            offsets.append(max(0, unit.start - media.startTime))
        }
        self.byteEnds = byteEnds
        self.offsets = offsets
    }

    /// The smallest wall time at which playback may start and never stall, at `bitsPerSecond` with
    /// `latency` seconds before the first byte; infinite at 0 bit/s (unless there is nothing to fetch).
    public func minimumStartupDelay(bitsPerSecond: Double, latency: Double = 0) -> Double {
        var delay = 0.0
        for index in byteEnds.indices {
            let complete = latency + byteEnds[index] * 8 / bitsPerSecond
            delay = max(delay, complete - offsets[index])
        }
        return delay
    }

    /// The smallest bandwidth, in bits per second, at which playback starting at wall time `startupDelay`
    /// never stalls, with `latency` seconds before the first byte; infinite when impossible.
    public func minimumBandwidth(startupDelay: Double, latency: Double = 0) -> Double {
        var bandwidth = 0.0
        for index in byteEnds.indices {
            let window = startupDelay + offsets[index] - latency
            guard window > 0 else { return byteEnds[index] > 0 ? .infinity : bandwidth }
            bandwidth = max(bandwidth, byteEnds[index] * 8 / window)
        }
        return bandwidth
    }
}
