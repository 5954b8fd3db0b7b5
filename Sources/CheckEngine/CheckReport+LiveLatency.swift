package import BufprobeOutput
extension CheckReport {
    /// `live_latency`: how far behind the live edge the viewer was, as players report it (hls.js
    /// `latency`, Shaka's `liveLatency`, dash.js's live delay): the stream's clock now minus the capture
    /// time of the media at the playhead. `null` for inputs that are not live or whose media no clock time
    /// maps (an HLS playlist without `EXT-X-PROGRAM-DATE-TIME`).
    package struct LiveLatency: Sendable, Codable, Hashable {
        /// What maps media to the clock: `program_date_time` (HLS `EXT-X-PROGRAM-DATE-TIME`) or
        /// `availability_time` (DASH `availabilityStartTime` and the period's start).
        package var basis: String
        /// The clock "now" was read from: `system` (this machine's), or `utc_timing <scheme> <url>` (the
        /// DASH manifest's `UTCTiming`).
        package var clock: String
        /// Seconds that clock was ahead of this machine's (0 for `system`).
        package var clockOffset: Double
        /// `--live-start` in force: `hold-back`, `edge`, `window-start` or seconds behind the edge.
        package var liveStart: String
        /// Latency when playback started, seconds.
        @NullEncoded package var atStart: Double?
        /// Lowest latency while playing (from the start of playback to the end of the sample), seconds.
        @NullEncoded package var min: Double?
        /// Time-weighted mean latency over the same span, seconds.
        @NullEncoded package var mean: Double?
        /// Highest latency over the same span, seconds (a stall adds its length).
        @NullEncoded package var max: Double?
        /// Latency when the check ended, seconds.
        @NullEncoded package var atEnd: Double?
        /// `at_end` minus `at_start`: how far the viewer fell behind (positive) or caught up over the sample.
        @NullEncoded package var drift: Double?
        /// The live edge's own delay at the last look: the clock minus the end of the newest media the
        /// origin listed (its capture time plus its duration), seconds. Encoder, packager and CDN delay.
        @NullEncoded package var edgeDelay: Double?
        /// Mean of `edge_delay` over every look at the origin's listing, seconds.
        @NullEncoded package var edgeDelayMean: Double?
        /// The hold-back the player applied when it started.
        package var holdBack: HoldBack
        /// Latency samples the figures were computed from.
        package var samples: Int

        /// The distance from the live edge the player started at.
        package struct HoldBack: Sendable, Codable, Hashable {
            /// Seconds between the live edge and the first media played, as started (a player that starts
            /// at a segment boundary starts up to a segment further back than its target).
            @NullEncoded package var applied: Double?
            /// The target it aimed at, seconds.
            @NullEncoded package var target: Double?
            /// Where the target comes from: `HOLD-BACK`, `PART-HOLD-BACK`, `3 x EXT-X-TARGETDURATION`,
            /// `suggestedPresentationDelay`, `--live-start`...
            @NullEncoded package var rule: String?
        }
    }
}
