#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Estimates download throughput as an exponentially weighted moving average of transfer samples, weighted
/// by their duration, with a half-life in seconds of transfer time (the scheme of Shaka Player's EWMA).
///
/// With the default half-life of 3 s, a sample counts half as much as one 3 s of transfer more recent:
/// quick enough to see a bandwidth drop within a few seconds, slow enough not to chase every burst. The
/// average is bias-corrected, so the first samples are not pulled towards zero. Time is injected: samples
/// carry their own elapsed time, or the `now` of the caller's clock.
public struct ThroughputEstimator: Sendable, Hashable {
    /// Seconds of transfer after which a sample's weight has halved.
    public let halfLife: Double
    /// Bytes that must have been seen before `bytesPerSecond` reports an estimate.
    public let minimumBytes: Int
    private var average = 0.0
    private var totalSeconds = 0.0
    /// Bytes seen in total.
    public private(set) var totalBytes = 0
    private var lastNow: Double?
    private var carriedBytes = 0

    /// Creates an estimator; `halfLife` must be positive (a non-positive one is taken as 3 s).
    public init(halfLife: Double = 3, minimumBytes: Int = 16_384) {
        self.halfLife = halfLife > 0 && halfLife.isFinite ? halfLife : 3
        self.minimumBytes = Swift.max(0, minimumBytes)
    }

    /// Adds a sample: `bytes` transferred in `elapsed` seconds. Bytes with no elapsed time (0 or less) are
    /// carried into the next sample rather than counted as infinitely fast.
    public mutating func add(bytes: Int, elapsed: Double) {
        let bytes = Swift.max(0, bytes) + carriedBytes
        guard elapsed > 0, elapsed.isFinite else {
            carriedBytes = bytes
            return
        }
        carriedBytes = 0
        totalBytes += bytes
        let weight = Self.decay(elapsed, halfLife)
        average = weight * average + (1 - weight) * (Double(bytes) / elapsed)
        totalSeconds += elapsed
    }

    /// Sets the clock reference for `add(bytes:now:)`, e.g. when a transfer starts after an idle time
    /// that must not count as slow transfer.
    public mutating func start(at now: Double) {
        lastNow = now
    }

    /// Adds `bytes` received at clock time `now`, transferred since the previous `now` (or `start(at:)`).
    /// Without a previous time the bytes are carried into the next sample.
    public mutating func add(bytes: Int, now: Double) {
        let elapsed = lastNow.map { now - $0 } ?? 0
        if lastNow == nil || now > lastNow! { lastNow = now }
        add(bytes: bytes, elapsed: elapsed)
    }

    /// The estimated throughput in bytes per second, or `nil` before `minimumBytes` were seen.
    public var bytesPerSecond: Double? {
        guard totalSeconds > 0, totalBytes >= minimumBytes, totalBytes > 0 else { return nil }
        return average / (1 - Self.decay(totalSeconds, halfLife))
    }

    /// The estimated throughput in bits per second, or `nil` before `minimumBytes` were seen.
    public var bitsPerSecond: Double? { bytesPerSecond.map { $0 * 8 } }

    private static func decay(_ seconds: Double, _ halfLife: Double) -> Double {
        exp2(-seconds / halfLife)
    }
}
