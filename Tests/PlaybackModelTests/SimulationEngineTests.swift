import PlaybackModel
import Testing

/// Constant-bit-rate audio laid out like `samples/cbr.wav`: a 44-byte header, then `seconds / 0.25`
/// packets of 0.25 s and `bytesPerSecond / 4` bytes each, one stream.
func constantBitRateMedia(seconds: Double, bytesPerSecond: Int, header: Int64 = 44) -> SimulationMedia {
    let count = Int(seconds * 4)
    let size = bytesPerSecond / 4
    let packets = (0..<count).map { index in
        MediaPacket(
            stream: 0, pts: Double(index) * 0.25, dts: Double(index) * 0.25, duration: 0.25, size: size,
            position: header + Int64(index * size), isKeyframe: true)
    }
    return .progressive(packets: packets, playableStreams: [0])
}

@Suite("Simulation engine")
struct SimulationEngineTests {
    static let rate = 128_000.0  // bits per second of the CBR media (16,000 bytes/s)

    @Test(
        "CBR media at bandwidth B >= R never stalls and starts after start threshold x R / B plus latency",
        arguments: [(128_000.0, 0.0), (256_000.0, 0.05), (1_000_000.0, 0.2), (10_000_000.0, 0.04)])
    func ampleBandwidth(bandwidth: Double, latency: Double) {
        let media = constantBitRateMedia(seconds: 10, bytesPerSecond: 16_000)
        let result = SimulationEngine.run(
            media: media, network: NetworkModel(bitsPerSecond: bandwidth, latency: latency), policy: .default)
        #expect(result.report.stallCount == 0)
        #expect(result.report.ended)
        // The threshold is met by the packet that completes the first second: header plus 16,000 bytes.
        let exact = latency + Double(44 + 16_000) * 8 / bandwidth
        #expect(abs(result.report.startupDelay - exact) < 1e-9)
        let formula = BufferPolicy.default.startThreshold * Self.rate / bandwidth + latency
        #expect(abs(result.report.startupDelay - formula) < 44 * 8 / bandwidth + 1e-9)
        #expect(abs(result.report.played - 10) < 1e-9)
    }

    @Test(
        "CBR media of length T at bandwidth B < R waits in total between T(R/B - 1) and that plus the resume threshold",
        arguments: [100_000.0, 64_000.0, 120_000.0, 32_000.0])
    func scarceBandwidth(bandwidth: Double) {
        let length = 10.0
        let media = constantBitRateMedia(seconds: length, bytesPerSecond: 16_000)
        let result = SimulationEngine.run(
            media: media, network: NetworkModel(bitsPerSecond: bandwidth), policy: .default)
        let waited = result.report.startupDelay + result.report.stallTime
        let lower = length * (Self.rate / bandwidth - 1)
        #expect(waited >= lower - 1e-9)
        #expect(waited <= lower + BufferPolicy.default.resumeThreshold + 44 * 8 / bandwidth + 1e-9)
        #expect(result.report.ended)
        // Either startup alone absorbed the shortfall, or playback stalled.
        #expect(result.report.stallCount > 0 || result.report.startupDelay >= lower)
    }

    @Test("with ample bandwidth and a 50 s forward target, a 60 s outage gives one stall of about 10 s where the buffer ran out")
    func outageStall() {
        let media = SimulationMedia.progressive(
            packets: SyntheticMedia(bitsPerSecond: 1_000_000, duration: 300).packets(), playableStreams: [0, 1])
        let outageStart = 30.0
        let result = SimulationEngine.run(
            media: media, network: NetworkModel(bitsPerSecond: 50_000_000), policy: .default,
            steps: [SimulationStep(time: outageStart, action: .outage(60))])
        #expect(result.report.stallCount == 1)
        guard let stall = result.report.stalls.first else { return }
        // At the outage the buffer holds the forward target (50 s) ahead of the playhead.
        let playheadAtOutage = outageStart - result.report.startupDelay
        #expect(abs(stall.position - (playheadAtOutage + 50)) < 0.1)
        #expect(abs(stall.start - (outageStart + 50)) < 0.1)
        // The outage ends 10 s after the stall began; 2 s of media then arrive in a fraction of a second.
        #expect(stall.duration >= 10 && stall.duration < 10.1)
        #expect(result.report.ended)
        let kinds = result.events.map(\.kind)
        #expect(kinds.contains(.outageStart) && kinds.contains(.outageEnd))
        #expect(kinds.filter { $0 == .stallStart }.count == 1)
    }

    @Test("the same inputs give the same timeline and report")
    func deterministic() {
        let media = SimulationMedia.progressive(
            packets: SyntheticMedia(bitsPerSecond: 3_000_000, duration: 120, variation: 0.4, seed: 9).packets(),
            playableStreams: [0, 1])
        let steps = [
            SimulationStep(time: 10, action: .bandwidth(1_000_000)), SimulationStep(time: 20, action: .seek(60)),
            SimulationStep(time: 30, action: .pause(5)), SimulationStep(time: 40, action: .rate(1.5)),
        ]
        let first = SimulationEngine.run(
            media: media, network: NetworkModel(bitsPerSecond: 4_000_000, latency: 0.05), policy: .default,
            steps: steps)
        let second = SimulationEngine.run(
            media: media, network: NetworkModel(bitsPerSecond: 4_000_000, latency: 0.05), policy: .default,
            steps: steps)
        #expect(first == second)
    }
}
