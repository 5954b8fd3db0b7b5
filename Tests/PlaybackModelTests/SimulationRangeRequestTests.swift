import PlaybackModel
import Testing

/// Ten 1 s packets of 10,000 bytes from byte 48 (a 48-byte head: `ftyp` and the `mdat` header), with a
/// 5,000-byte index after them: an MP4 with its `moov` at the end, fetched as `download` says.
private func moovAtEndMedia(_ mode: DownloadMode) -> SimulationMedia {
    let packets = (0..<10).map { index in
        MediaPacket(
            stream: 0, pts: Double(index), dts: Double(index), duration: 1, size: 10_000,
            position: 48 + Int64(index) * 10_000, isKeyframe: true)
    }
    return .progressive(
        packets: packets, playableStreams: [0], totalBytes: 105_048,
        download: .progressive(indexAtEnd: (offset: 100_048, size: 5_000), mode: mode))
}

@Suite("Simulation of a file whose index is at the end")
struct SimulationRangeRequestTests {
    @Test(
        "by range requests, startup is three latencies plus the head, the index and the media up to the start threshold at the bandwidth",
        arguments: [(400_000.0, 0.0), (400_000.0, 0.1), (2_000_000.0, 0.25)])
    func rangesStartupClosedForm(bandwidth: Double, latency: Double) {
        let policy = BufferPolicy(startThreshold: 2, resumeThreshold: 2)
        let result = SimulationEngine.run(
            media: moovAtEndMedia(.ranges), network: NetworkModel(bitsPerSecond: bandwidth, latency: latency),
            policy: policy)
        // Head (48) + index (5,000) + the two packets that buffer 2 s (20,000), each request one latency.
        let expected = 3 * latency + Double(48 + 5_000 + 20_000) * 8 / bandwidth
        #expect(abs(result.report.startupDelay - expected) < 1e-9, "\(result.report.startupDelay) vs \(expected)")
        #expect(result.requests == 3)
        #expect(result.bytesReceived == 105_048)
        #expect(result.report.ended)
    }

    @Test("sequentially, nothing plays before the whole file up to the index's end is in, after one latency")
    func sequentialStartupClosedForm() {
        let result = SimulationEngine.run(
            media: moovAtEndMedia(.sequential), network: NetworkModel(bitsPerSecond: 400_000, latency: 0.1),
            policy: BufferPolicy(startThreshold: 2, resumeThreshold: 2))
        #expect(abs(result.report.startupDelay - (0.1 + 105_048.0 * 8 / 400_000)) < 1e-9)
        #expect(result.requests == 1)
    }

    @Test("the sequential mode is the indexByteEnd media of before, event for event")
    func sequentialIsTheOldModel() {
        let packets = SyntheticMedia(bitsPerSecond: 800_000, duration: 20).packets()
        let size = Int64(packets.reduce(0) { $0 + $1.size }) + 5_000
        let old = SimulationMedia.progressive(packets: packets, playableStreams: [0, 1], indexByteEnd: size)
        let new = SimulationMedia.progressive(
            packets: packets, playableStreams: [0, 1],
            download: .progressive(indexAtEnd: (offset: size - 5_000, size: 5_000), mode: .sequential))
        let network = NetworkModel(bitsPerSecond: 600_000, latency: 0.05)
        let before = SimulationEngine.run(media: old, network: network, policy: .default)
        let after = SimulationEngine.run(media: new, network: network, policy: .default)
        #expect(before.events == after.events)
        #expect(before.report == after.report)
    }

    @Test("a seek after the index is in sends one request; one before it fetches the head and index first")
    func seekRequests() {
        let policy = BufferPolicy(startThreshold: 1, resumeThreshold: 1)
        // 12,500 bytes/s: at 2 s little more than the first packet is in, so 8 s is out of the buffer.
        let network = NetworkModel(bitsPerSecond: 100_000, latency: 0.1)
        let late = SimulationEngine.run(
            media: moovAtEndMedia(.ranges), network: network, policy: policy,
            steps: [SimulationStep(time: 2, action: .seek(8))])
        #expect(late.requests == 4)
        #expect(late.report.ended)
        // At 0.15 s the head is in and the index on its way: the seek's request fetches the index again whole.
        let early = SimulationEngine.run(
            media: moovAtEndMedia(.ranges), network: network, policy: policy,
            steps: [SimulationStep(time: 0.15, action: .seek(8))])
        #expect(early.requests == 4)
        #expect(early.report.ended)
    }

    @Test("the range-request needs and the engine agree: preloading D s at the minimum bandwidth +1% never stalls, -5% does")
    func needsAgree() {
        let media = moovAtEndMedia(.ranges)
        // Delays at which the last packet binds: when the first one does, arriving late only delays the
        // start, which is not a stall.
        for delay in [3.0, 5.0] {
            let needs = media.needs(startupDelays: [delay], bandwidths: [], latency: 0.05)
            let minimum = needs.minimumBandwidth(forStartupDelayAt: 0) ?? .infinity
            #expect(minimum.isFinite)
            let policy = BufferPolicy(startThreshold: 0, resumeThreshold: 0)
            let steps = [SimulationStep(time: delay, action: .play)]
            let above = SimulationEngine.run(
                media: media, network: NetworkModel(bitsPerSecond: minimum * 1.01, latency: 0.05), policy: policy,
                steps: steps, autoplay: false)
            #expect(above.report.stallCount == 0, "D = \(delay)")
            let below = SimulationEngine.run(
                media: media, network: NetworkModel(bitsPerSecond: minimum * 0.95, latency: 0.05), policy: policy,
                steps: steps, autoplay: false)
            #expect(below.report.stallCount > 0, "D = \(delay)")
        }
    }
}
