import PlaybackModel
import Testing

@Suite("ThroughputEstimator")
struct ThroughputEstimatorTests {
    @Test("a steady rate is estimated exactly from the first sample (bias-corrected)")
    func steadyRate() throws {
        var estimator = ThroughputEstimator(minimumBytes: 0)
        estimator.add(bytes: 100_000, elapsed: 0.5)
        let first = try #require(estimator.bytesPerSecond)
        #expect(abs(first - 200_000) < 1e-6)
        for _ in 0..<20 { estimator.add(bytes: 100_000, elapsed: 0.5) }
        #expect(abs(try #require(estimator.bytesPerSecond) - 200_000) < 1e-6)
    }

    @Test("no estimate before the minimum bytes")
    func minimumBytes() {
        var estimator = ThroughputEstimator(minimumBytes: 16_384)
        estimator.add(bytes: 10_000, elapsed: 1)
        #expect(estimator.bytesPerSecond == nil)
        estimator.add(bytes: 10_000, elapsed: 1)
        #expect(estimator.bytesPerSecond != nil)
    }

    @Test("after one half-life of a new rate the estimate is halfway between old and new, corrected for history")
    func halfLife() throws {
        var estimator = ThroughputEstimator(halfLife: 2, minimumBytes: 0)
        // A long history at 1000 B/s makes the bias correction negligible.
        for _ in 0..<200 { estimator.add(bytes: 1000, elapsed: 1) }
        estimator.add(bytes: 6000, elapsed: 2)
        #expect(abs(try #require(estimator.bytesPerSecond) - 2000) < 1e-6)
    }

    @Test("bytes arriving with no elapsed time are carried into the next sample, and now-based samples use the gap")
    func injectedTime() throws {
        var estimator = ThroughputEstimator(minimumBytes: 0)
        estimator.start(at: 10)
        estimator.add(bytes: 500, now: 10)
        estimator.add(bytes: 1500, now: 12)
        #expect(abs(try #require(estimator.bytesPerSecond) - 1000) < 1e-6)
        #expect(try #require(estimator.bitsPerSecond) == 8 * (try #require(estimator.bytesPerSecond)))
    }
}
