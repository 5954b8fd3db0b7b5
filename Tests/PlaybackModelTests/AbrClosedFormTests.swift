import PlaybackModel
import Testing

/// Each ABR rule's closed form, against figures worked out by hand from Sabre's formulas (src/sabre.py).
@Suite("ABR closed forms")
struct AbrClosedFormTests {
    /// 300, 750, 1,500 and 3,000 kbit/s in 3 s segments.
    static let ladder = [300_000.0, 750_000, 1_500_000, 3_000_000]

    /// The variant BOLA-BASIC picks at `buffer` mid-stream, with `forwardTarget` 22 s (Sabre's 25 s buffer).
    static func bolaBasic(buffer: Double, target: Double = 25) -> Int {
        var controller = AbrController(
            rule: .bola(AbrRule.Bola(bufferTarget: target, gammaP: 5, variant: .basic)), bitRates: ladder,
            segmentDuration: 3, forwardTarget: 22)
        controller.recordDownload(bytes: 1_000_000, transfer: 1, latency: 0)
        return controller.choose(buffer: buffer, segment: 40, segmentCount: 80).variant
    }

    // V = (25 - 3) / (ln 10 + 5) = 3.0126; BOLA steps from q-1 to q at
    // V (gp + (b_q u_{q-1} - b_{q-1} u_q) / (b_q - b_{q-1})): 13.223, 15.735, 17.824 s.
    @Test(
        "BOLA steps up at V (gp + (b_q u_q-1 - b_q-1 u_q) / (b_q - b_q-1)), V from the 25 s buffer size: 13.22, 15.74, 17.82 s",
        arguments: [(13.223, 0), (15.735, 1), (17.824, 2)])
    func bolaStepUpLevels(level: Double, below: Int) {
        #expect(Self.bolaBasic(buffer: level - 0.01) == below)
        #expect(Self.bolaBasic(buffer: level + 0.01) == below + 1)
    }

    @Test("BOLA's buffer size is the one given, at most the forward target plus a segment, not the forward target")
    func bolaBufferSize() {
        let controller = AbrController(
            rule: .bola(.default), bitRates: Self.ladder, segmentDuration: 3, forwardTarget: 22)
        #expect(controller.bolaBufferTarget == 25)
        let capped = AbrController(rule: .bola(.default), bitRates: Self.ladder, segmentDuration: 3, forwardTarget: 12)
        #expect(capped.bolaBufferTarget == 15)
        // Below the first step-up level of the 25 s buffer size (13.22 s) but above that of a 22 s one
        // (11.42 s): still the lowest variant.
        #expect(Self.bolaBasic(buffer: 12.5) == 0)
        #expect(Self.bolaBasic(buffer: 12.5, target: 22) == 1)
    }

    @Test("BOLA-U steps up at most one variant above what throughput sustains, and holds a variant already above it")
    func bolaUpSwitchCap() {
        // 1.2 Mbit/s over the transfer, 0.1 s latency: 0.1 + 3 x 0.75 / 1.2 = 1.975 <= 3 sustains 750 kbit/s,
        // 0.1 + 3 x 1.5 / 1.2 = 3.85 > 3 does not.
        func controller(_ variant: AbrRule.Bola.Variant) -> AbrController {
            var controller = AbrController(
                rule: .bola(AbrRule.Bola(bufferTarget: 25, gammaP: 5, variant: variant)), bitRates: Self.ladder,
                segmentDuration: 3, forwardTarget: 22)
            controller.recordDownload(bytes: 150_000, transfer: 1, latency: 0.1)
            return controller
        }
        var u = controller(.u)
        #expect(u.sustainedVariant(throughput: 1_200_000, latency: 0.1) == 1)
        // A 20 s buffer: the formula alone takes the top variant.
        #expect(u.choose(buffer: 20, segment: 40, segmentCount: 80).variant == 2)
        #expect(u.choose(buffer: 20, segment: 41, segmentCount: 80).variant == 2)
        var basic = controller(.basic)
        #expect(basic.choose(buffer: 20, segment: 40, segmentCount: 80).variant == 3)
        // Stepping down is never capped.
        #expect(u.choose(buffer: 5, segment: 42, segmentCount: 80).variant == 0)
    }

    @Test("BOLA-U's buffer size near the start is max(t / 2, 3) segments, t the segments since the start (Sabre)")
    func bolaUStartupSize() {
        var controller = AbrController(
            rule: .bola(AbrRule.Bola(bufferTarget: 25, gammaP: 5, variant: .u)), bitRates: Self.ladder,
            segmentDuration: 3, forwardTarget: 22)
        controller.recordDownload(bytes: 10_000_000, transfer: 1, latency: 0)
        // Segment 4: size 9 s, V = 6 / 7.3026 = 0.8216; 2 x 0.8216 (5 + u_1 ...) puts 3 s above every step.
        #expect(controller.choose(buffer: 3, segment: 4, segmentCount: 80).variant == 0)
        // Mid-stream the full 25 s size is used and 3 s is far below the first step.
        #expect(controller.choose(buffer: 3, segment: 40, segmentCount: 80).variant == 0)
        // 6 s of buffer at segment 4 (size 9 s: levels V (5 - 0.6108) = 3.61 s and up, top at 5.03 s)
        // is past every step: the top variant (throughput 80 Mbit/s sustains it).
        #expect(controller.choose(buffer: 6, segment: 4, segmentCount: 80).variant == 3)
    }

    @Test("throughput is measured over the transfer and the latency charged once per segment on a high-latency link")
    func throughputWithLatency() {
        // 1, 2 and 4 Mbit/s in 2 s segments; 5 Mbit/s over the transfer after 0.5 s of latency.
        let rates = [1_000_000.0, 2_000_000, 4_000_000]
        var controller = AbrController(
            rule: .throughput(.default), bitRates: rates, segmentDuration: 2, forwardTarget: 50)
        controller.recordDownload(bytes: 625_000, transfer: 1, latency: 0.5)
        let estimate = controller.estimate(.sliding, window: 3)
        #expect(estimate?.throughput == 5_000_000)
        #expect(estimate?.latency == 0.5)
        // 0.5 + 2 x 4 / 4.5 = 2.28 > 2, 0.5 + 2 x 2 / 4.5 = 1.39 <= 2: 2 Mbit/s, though 4 <= 0.9 x 5.
        #expect(controller.choose(buffer: 10).variant == 1)
        var lowLatency = AbrController(
            rule: .throughput(.default), bitRates: rates, segmentDuration: 2, forwardTarget: 50)
        lowLatency.recordDownload(bytes: 625_000, transfer: 1, latency: 0.02)
        #expect(lowLatency.choose(buffer: 10).variant == 2)
    }

    @Test("Sabre's EWMA: per half-life bias-corrected means, the lowest throughput and highest latency of 3 s and 8 s")
    func ewmaHalfLives() throws {
        func estimate(_ samples: [(Double, Double)]) throws -> (throughput: Double, latency: Double) {
            var controller = AbrController(
                rule: .throughput(AbrRule.Throughput(safetyFactor: 0.9, window: 3, estimator: .sabreEwma)),
                bitRates: Self.ladder, segmentDuration: 3, forwardTarget: 22)
            for (megabits, latency) in samples {
                controller.recordDownload(bytes: Int64(megabits * 3 * 1_000_000 / 8), transfer: 3, latency: latency)
            }
            return try #require(controller.estimate(.sabreEwma, window: 3))
        }
        // 4 then 1 Mbit/s, 3 s each. h = 3: (0.25 x 4 + 0.5 x 1) / 0.75 = 2.0; h = 8 (a = 2^-3/8 = 0.7711):
        // (0.7711 x 0.2289 x 4 + 0.2289) / (1 - 2^-6/8) = 2.306. The lower: 2.0 Mbit/s, the 3 s half-life.
        let falling = try estimate([(4, 0.1), (1, 0.3)])
        #expect(abs(falling.throughput - 2_000_000) < 1)
        // 1 then 4: h = 3 gives 3.0, h = 8 gives 2.694: the 8 s half-life.
        let rising = try estimate([(1, 0.1), (4, 0.3)])
        #expect(abs(rising.throughput - 2_694_000) < 1_000)
        // Latency half-lives in segments, 3 / 3 = 1 and 8 / 3: 0.2333 and 0.2129 s; the higher.
        #expect(abs(falling.latency - 0.23333) < 1e-4)
        // One sample: every half-life returns it.
        let single = try estimate([(2, 0.05)])
        #expect(abs(single.throughput - 2_000_000) < 1e-3)
        #expect(abs(single.latency - 0.05) < 1e-9)
    }

    @Test("Sabre's insufficient-buffer rule caps by s (buffer - latency) tput, s from 0.9 shrinking by 0.9 a choice")
    func insufficientBuffer() {
        let rates = [1_000_000.0, 2_000_000, 4_000_000]
        var controller = AbrController(
            rule: .throughput(AbrRule.Throughput(safetyFactor: 0.9, window: 3, insufficientBufferRule: true)),
            bitRates: rates, segmentDuration: 2, forwardTarget: 50)
        controller.recordDownload(bytes: 1_250_000, transfer: 1, latency: 0)
        // 10 Mbit/s, 0.5 s of buffer: 0.9 x 0.5 x 10 = 4.5 Mbit admits 2 Mbit/s x 2 s, not 8 Mbit.
        #expect(controller.choose(buffer: 0.5).variant == 1)
        // 0.81 x 5 = 4.05 Mbit still admits 4 Mbit; 0.729 x 5 = 3.645 no longer does.
        #expect(controller.choose(buffer: 0.5).variant == 1)
        #expect(controller.choose(buffer: 0.5).variant == 0)
        // Plenty of buffer: the throughput choice stands.
        #expect(controller.choose(buffer: 10).variant == 2)
    }
}
