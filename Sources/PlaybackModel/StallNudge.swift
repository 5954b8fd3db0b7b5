/// A player's stall watchdog that moves the playhead on by itself: hls.js's `GapController`, which, once the
/// playhead has not moved for `period` seconds with more than `minimumAhead` seconds buffered ahead, sets
/// `currentTime` forward by `offset` times the nudges so far plus one (a seek, so the browser's resume
/// threshold starts over).
///
/// hls.js's values (nyanmisaka/hls.js at 2ca771e, `src/`): `highBufferWatchdogPeriod` 2 s, `maxBufferHole`
/// 0.1 s, `nudgeOffset` 0.1 s (`config.ts` 336-338); the stall is timed from the first 100 ms tick that
/// finds the playhead where the previous tick left it and checked on every tick (`gap-controller.ts`
/// 47-166, 174-213, `stream-controller.ts` 39, 931-944), so `period` is the watchdog plus one tick. The
/// nudge count is cleared only when the playhead moves while a stall is being timed, and a nudge's seek
/// clears the timing (`gap-controller.ts` 59-75, 210): nudged stalls in a row add up, a stall that ends by
/// itself (the browser resumed on the data appended) starts the count over. In a row the second nudge
/// moves 0.2 s, the third 0.3 s, and at the fourth hls.js gives up with a fatal `bufferStalledError`
/// (`nudgeMaxRetry` 3, `config.ts` 339, `gap-controller.ts` 334-368): playback fails there.
public struct StallNudge: Sendable, Hashable, Codable {
    /// Seconds stalled before the nudge.
    public var period: Double
    /// Seconds that must be buffered ahead of the playhead, more than this, for a nudge.
    public var minimumAhead: Double
    /// Seconds the first nudge moves the playhead; nudge n moves `n * offset`.
    public var offset: Double
    /// The nudges before the player gives up: when one more is due, playback fails instead (`nil`: never).
    public var maxNudges: Int?

    /// Creates a watchdog.
    public init(period: Double, minimumAhead: Double, offset: Double, maxNudges: Int? = nil) {
        self.period = period
        self.minimumAhead = minimumAhead
        self.offset = offset
        self.maxNudges = maxNudges
    }

    /// What playback fails with when a nudge is due after `maxNudges` (hls.js's error message).
    public var failure: String {
        "bufferStalledError: playhead still not moving while enough data buffered after \(maxNudges ?? 0) nudges"
    }

    private enum CodingKeys: String, CodingKey {
        case period
        case minimumAhead = "minimum_ahead"
        case offset
        case maxNudges = "max_nudges"
    }
}
