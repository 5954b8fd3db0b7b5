/// What connection a download needs so that playback never stalls: for a fixed table of startup delays,
/// the minimum bandwidth; for a fixed table of bandwidths, the minimum startup delay. Exact for a player
/// that needs a whole packet before it presents any of it, in O(1) memory per table entry: every figure
/// is a running maximum over the packets.
///
/// The arithmetic. Bytes arrive in order at a constant `B` bytes per second after `r` request latencies
/// `L` (one request for a plain progressive download; a segmented stream pays one per segment). A packet
/// whose last byte is byte `E` of the download is complete at wall time `r·L + E / B`. Its presentation
/// time `p` is counted from the *playable start* (the first instant every played stream has data), and a
/// player that starts playing `D` seconds after the first request presents it at wall time `D + p`.
/// Playback never stalls exactly when every packet is complete by then:
///
///     r·L + E / B <= D + p   for every packet
///
/// so, for a startup delay `D`, the minimum bandwidth is `max over packets of E / (D + p - r·L)` (no
/// bandwidth suffices when some `D + p - r·L <= 0`), and for a bandwidth `B` the minimum startup delay is
/// `max over packets of (r·L + E / B - p)`, clamped at 0. Packets before the playable start (`p < 0`,
/// encoder priming) are needed at the start: `p` is clamped at 0.
///
/// What does not enter: the player's start threshold. The figures describe a player that starts at wall
/// time `D`; a player that instead starts when it has buffered its threshold starts at its own time `t`,
/// and at bandwidth `B` it plays without a stall exactly when `t >= startupDelay(atBandwidth: B)`.
/// Starting later never hurts a progressive download, as long as loading is not paused by a forward-buffer
/// limit before the end.
public struct ProgressiveDownloadNeeds: Sendable, Hashable {
    /// Startup delays in seconds, in the order given.
    public let startupDelays: [Double]
    /// Bandwidths in bits per second, in the order given.
    public let bandwidths: [Double]
    /// Latency of one request (time to first byte) in seconds.
    public let latency: Double
    /// Packets added so far.
    public private(set) var packets = 0
    // Bytes per second needed for each startup delay; infinity once latency alone makes it impossible.
    private var neededBytesPerSecond: [Double]
    // Startup delay needed at each bandwidth, before clamping at 0.
    private var neededDelay: [Double]

    /// Creates empty tables for `startupDelays` (seconds) and `bandwidths` (bits per second, > 0), with
    /// `latency` seconds per request.
    public init(startupDelays: [Double], bandwidths: [Double], latency: Double = 0) {
        // Caller contracts, not input checks: the commands pass the fixed ladder (128 kbit/s and up) and a
        // latency parsed as `Seconds`, which refuses negatives with a sentence (exit 64) before this.
        precondition(bandwidths.allSatisfy { $0 > 0 }, "a bandwidth must be above 0 bit/s")
        precondition(latency >= 0, "latency cannot be negative")
        self.startupDelays = startupDelays
        self.bandwidths = bandwidths
        self.latency = latency
        neededBytesPerSecond = Array(repeating: 0, count: startupDelays.count)
        neededDelay = Array(repeating: -.infinity, count: bandwidths.count)
    }

    /// Adds a packet that is complete once `byteEnd` bytes of the download have arrived, after `requests`
    /// request latencies, and is presented `presentationTime` seconds after the playable start.
    public mutating func add(byteEnd: Int64, presentationTime: Double, requests: Int = 1) {
        let bytes = Double(byteEnd)
        let p = max(presentationTime, 0)
        let waiting = Double(requests) * latency
        packets += 1
        // Unsafe views: this runs for every packet of a probe, and the checked subscripts cost a
        // uniqueness check per store.
        startupDelays.withUnsafeBufferPointer { delays in
            neededBytesPerSecond.withUnsafeMutableBufferPointer { needed in
                for index in delays.indices {
                    let slack = delays[index] + p - waiting
                    let need = slack > 0 ? bytes / slack : (bytes > 0 || waiting > 0 ? .infinity : 0)
                    if need > needed[index] { needed[index] = need }
                }
            }
        }
        bandwidths.withUnsafeBufferPointer { bandwidths in
            neededDelay.withUnsafeMutableBufferPointer { needed in
                for index in bandwidths.indices {
                    let delay = waiting + bytes * 8 / bandwidths[index] - p
                    if delay > needed[index] { needed[index] = delay }
                }
            }
        }
    }

    /// The minimum bandwidth in bits per second for `startupDelays[index]`; `nil` when no bandwidth is
    /// enough (the request latencies alone exceed the delay), 0 when no packet was added.
    public func minimumBandwidth(forStartupDelayAt index: Int) -> Double? {
        let need = neededBytesPerSecond[index]
        return need.isFinite ? need * 8 : nil
    }

    /// The minimum startup delay in seconds at `bandwidths[index]`; 0 when no packet was added.
    public func startupDelay(atBandwidthAt index: Int) -> Double { max(neededDelay[index], 0) }

    /// Every startup delay with its minimum bandwidth (bits per second, `nil` when none suffices).
    public var bandwidthNeeds: [(startupDelay: Double, bitsPerSecond: Double?)] {
        startupDelays.indices.map { (startupDelays[$0], minimumBandwidth(forStartupDelayAt: $0)) }
    }

    /// Every bandwidth with its minimum startup delay.
    public var startupDelayNeeds: [(bitsPerSecond: Double, startupDelay: Double)] {
        bandwidths.indices.map { (bandwidths[$0], startupDelay(atBandwidthAt: $0)) }
    }

    /// The needs of a segmented stream (HLS): one request per segment, so segment `k` (counted from 0) is
    /// complete after `k + 1` latencies and all bytes of segments `0...k`, and is presented at the sum of
    /// the durations before it. Segment granularity: a player cannot use part of a segment.
    public static func segmented(
        _ segments: [(duration: Double, bytes: Int64)], startupDelays: [Double], bandwidths: [Double],
        latency: Double = 0
    ) -> ProgressiveDownloadNeeds {
        var needs = ProgressiveDownloadNeeds(startupDelays: startupDelays, bandwidths: bandwidths, latency: latency)
        var bytes: Int64 = 0
        var time = 0.0
        for (index, segment) in segments.enumerated() {
            bytes += segment.bytes
            needs.add(byteEnd: bytes, presentationTime: time, requests: index + 1)
            time += segment.duration
        }
        return needs
    }
}
