import PlaybackModel
import Testing

/// A constant-bit-rate stream: `count` packets of `size` bytes and `duration` seconds after a `header`.
private func cbrPackets(header: Int64, size: Int, duration: Double, count: Int) -> [(byteEnd: Int64, time: Double)] {
    (0..<count).map { j in (header + Int64(size) * Int64(j + 1), Double(j) * duration) }
}

/// Packets of a VBR file with interleaving jitter: byte ends increase, times wander around the order.
private func randomPackets(seed: UInt64, count: Int) -> [(byteEnd: Int64, time: Double)] {
    var generator = SplitMix64(seed: seed)
    var end: Int64 = Int64.random(in: 0...5000, using: &generator)
    return (0..<count).map { j in
        end += Int64.random(in: 1...20_000, using: &generator)
        let time = max(0, Double(j) * 0.04 + Double.random(in: -0.3...0.3, using: &generator))
        return (end, time)
    }
}

@Suite("ProgressiveDownloadNeeds")
struct DiagnosticsNeedsTests {
    @Test("CBR: the minimum bandwidth is the largest byte end over its deadline, the last packet's when packets are long enough",
          arguments: [1.0, 2, 5, 10])
    func cbrClosedForm(delay: Double) throws {
        // 16,000 bytes/s in 0.25 s packets after a 44-byte header, 10 s: cbr.wav with even packets.
        let packets = cbrPackets(header: 44, size: 4000, duration: 0.25, count: 40)
        var needs = ProgressiveDownloadNeeds(startupDelays: [delay], bandwidths: [128_000])
        for packet in packets { needs.add(byteEnd: packet.byteEnd, presentationTime: packet.time) }
        let bandwidth = try #require(needs.minimumBandwidth(forStartupDelayAt: 0))
        // size·D > duration·(header + size) here, so E_j / (D + p_j) grows with j: the last packet decides.
        let total = 160_044.0
        #expect(bandwidth == total / (delay + 9.75) * 8)
        // Against the fluid formula S / (T + D): above it by the last packet's duration, below the rate.
        #expect(bandwidth > total * 8 / (10 + delay))
        #expect(bandwidth < 128_000)
    }

    @Test("the startup delay at a bandwidth is the latest completion minus the deadline, clamped at 0")
    func startupDelayAtBandwidth() {
        var needs = ProgressiveDownloadNeeds(startupDelays: [], bandwidths: [8_000, 80_000, 8_000_000])
        // 1,000 bytes at 8 kbit/s = 1 s.
        needs.add(byteEnd: 1_000, presentationTime: 0)
        needs.add(byteEnd: 5_000, presentationTime: 2)  // done at 5 s, needed at D + 2
        needs.add(byteEnd: 6_000, presentationTime: 5.5)  // done at 6 s, needed at D + 5.5
        #expect(needs.startupDelay(atBandwidthAt: 0) == 3)
        // 10,000 bytes per second: the first packet decides (0.1 s), the others arrive with time to spare.
        #expect(needs.startupDelay(atBandwidthAt: 1) == 0.1)
        #expect(abs(needs.startupDelay(atBandwidthAt: 2) - 0.001) < 1e-15)
        #expect(ProgressiveDownloadNeeds(startupDelays: [], bandwidths: [1]).startupDelay(atBandwidthAt: 0) == 0)
    }

    @Test("the two tables are inverses: at the minimum bandwidth for D the startup delay is D, and 1% less needs longer",
          arguments: [UInt64(1), 2, 3, 4, 5])
    func tablesAreInverse(seed: UInt64) throws {
        let packets = randomPackets(seed: seed, count: 500)
        let delays = [0.5, 1, 2, 5, 10]
        var needs = ProgressiveDownloadNeeds(startupDelays: delays, bandwidths: [1])
        for packet in packets { needs.add(byteEnd: packet.byteEnd, presentationTime: packet.time) }
        for (index, delay) in delays.enumerated() {
            let bandwidth = try #require(needs.minimumBandwidth(forStartupDelayAt: index))
            var check = ProgressiveDownloadNeeds(startupDelays: [], bandwidths: [bandwidth, bandwidth * 0.99])
            for packet in packets { check.add(byteEnd: packet.byteEnd, presentationTime: packet.time) }
            #expect(abs(check.startupDelay(atBandwidthAt: 0) - delay) < 1e-9 * max(delay, 1))
            #expect(check.startupDelay(atBandwidthAt: 1) > delay)
        }
    }

    @Test("the figures are a maximum over packets: any order of adding gives the same result")
    func orderDoesNotMatter() {
        let packets = randomPackets(seed: 42, count: 300)
        var forward = ProgressiveDownloadNeeds(startupDelays: [1, 3], bandwidths: [500_000, 2_000_000])
        var backward = forward
        for packet in packets { forward.add(byteEnd: packet.byteEnd, presentationTime: packet.time) }
        for packet in packets.reversed() { backward.add(byteEnd: packet.byteEnd, presentationTime: packet.time) }
        #expect(forward == backward)
    }

    @Test("latency L for one request needs what a start L seconds sooner needs without latency")
    func latencyShiftsTheStart() throws {
        let packets = randomPackets(seed: 7, count: 200)
        var withLatency = ProgressiveDownloadNeeds(startupDelays: [2], bandwidths: [1_000_000], latency: 0.5)
        var without = ProgressiveDownloadNeeds(startupDelays: [1.5], bandwidths: [1_000_000])
        for packet in packets {
            withLatency.add(byteEnd: packet.byteEnd, presentationTime: packet.time)
            without.add(byteEnd: packet.byteEnd, presentationTime: packet.time)
        }
        #expect(withLatency.minimumBandwidth(forStartupDelayAt: 0) == without.minimumBandwidth(forStartupDelayAt: 0))
        #expect(abs(withLatency.startupDelay(atBandwidthAt: 0) - without.startupDelay(atBandwidthAt: 0) - 0.5) < 1e-12)
    }

    @Test("no bandwidth starts playback sooner than the request latency")
    func latencyCanMakeItImpossible() {
        var needs = ProgressiveDownloadNeeds(startupDelays: [0.1, 0.3], bandwidths: [], latency: 0.2)
        needs.add(byteEnd: 100, presentationTime: 0)
        #expect(needs.minimumBandwidth(forStartupDelayAt: 0) == nil)
        let bandwidth = needs.minimumBandwidth(forStartupDelayAt: 1) ?? 0
        #expect(abs(bandwidth - 100 / 0.1 * 8) < 1e-9)
    }

    @Test("priming before the playable start is needed at the start")
    func negativeTimesClamp() {
        var needs = ProgressiveDownloadNeeds(startupDelays: [2], bandwidths: [8_000])
        needs.add(byteEnd: 1_000, presentationTime: -0.5)
        #expect(needs.minimumBandwidth(forStartupDelayAt: 0) == Double(1_000 / 2 * 8))
        #expect(needs.startupDelay(atBandwidthAt: 0) == 1)
    }

    @Test("segmented: segment k is complete after k + 1 requests and the bytes of segments 0...k")
    func segmented() throws {
        let segments: [(duration: Double, bytes: Int64)] = [(2, 50_000), (2, 60_000), (2, 40_000)]
        let needs = ProgressiveDownloadNeeds.segmented(
            segments, startupDelays: [1, 4], bandwidths: [400_000], latency: 0.1)
        // Segment k: byte end C_k over D + start_k - (k + 1)·L, as the type computes it.
        func expected(_ delay: Double) -> Double {
            let ends: [Double] = [50_000, 110_000, 150_000]
            let starts: [Double] = [0, 2, 4]
            var need = 0.0
            for k in 0..<3 {
                let slack: Double = delay + starts[k] - Double(k + 1) * 0.1
                need = max(need, ends[k] / slack)
            }
            return need * 8
        }
        #expect(try #require(needs.minimumBandwidth(forStartupDelayAt: 0)) == expected(1))
        #expect(try #require(needs.minimumBandwidth(forStartupDelayAt: 1)) == expected(4))
        // By hand for D = 1: 50,000 / 0.9 bytes per second wins (the others are 110,000 / 2.8, 150,000 / 4.7).
        #expect(abs(expected(1) - 50_000 / 0.9 * 8) < 1e-6)
        // At 400 kbit/s = 50,000 B/s: done at 1.1, 2.3, 3.4 s; needed at D, D + 2, D + 4.
        #expect(abs(needs.startupDelay(atBandwidthAt: 0) - 1.1) < 1e-12)
    }
}
