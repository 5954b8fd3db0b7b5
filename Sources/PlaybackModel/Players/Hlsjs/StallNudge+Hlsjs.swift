extension StallNudge {
    /// hls.js's: 2 s of `highBufferWatchdogPeriod` plus its 100 ms tick, more than 0.1 s ahead, 0.1 s,
    /// fatal at the fourth.
    public static let hlsjs = StallNudge(period: 2.1, minimumAhead: 0.1, offset: 0.1, maxNudges: 3)
}
