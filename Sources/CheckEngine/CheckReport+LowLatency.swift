package import BufprobeOutput
extension CheckReport {
    /// `low_latency`: how a low-latency HLS stream (RFC 8216bis: `EXT-X-PART-INF` and `CAN-BLOCK-RELOAD=YES`)
    /// behaved when bufprobe played it part by part with blocking playlist reloads (`LowLatencyMonitor`'s
    /// rules). `null` for every other input, and with `--no-low-latency`.
    package struct LowLatencyReport: Sendable, Codable, Hashable {
        /// The media playlist played.
        package var playlist: String
        /// `PART-TARGET`, seconds.
        @NullEncoded package var partTarget: Double?
        /// `PART-HOLD-BACK`, seconds.
        @NullEncoded package var partHoldBack: Double?
        /// `CAN-BLOCK-RELOAD=YES`.
        package var canBlockReload = false
        /// `CAN-SKIP-UNTIL`, seconds, when delta updates are offered.
        @NullEncoded package var canSkipUntil: Double?
        /// How far behind the newest listed media the first part played began, seconds (the hold-back applied).
        @NullEncoded package var startBehindEdge: Double?
        /// Blocking reloads (`_HLS_msn`/`_HLS_part`) made.
        package var blockingReloads = 0
        /// Of those, answered with the part asked for (held until it existed, or it already did).
        package var blockingReloadsHeld = 0
        /// Of those, answered without the part asked for: the server ignored the request.
        package var blockingReloadsIgnored = 0
        /// Seconds each blocking reload took, request to parsed playlist: shortest.
        @NullEncoded package var holdMin: Double?
        /// Mean.
        @NullEncoded package var holdMean: Double?
        /// Longest.
        @NullEncoded package var holdMax: Double?
        /// Delta updates (`_HLS_skip=YES`) received.
        package var deltaUpdates = 0
        /// Parts fetched and handed to the demuxer.
        package var partsPlayed = 0
        /// Whole segments fetched to catch up (parts no longer listed).
        package var segmentsPlayed = 0
        /// Problems found, per kind (every kind present).
        package var counts = Counts()
        /// The problems, oldest first (at most `LowLatencyMonitor.maxEventsPerKind` per kind; `counts` keeps
        /// counting).
        package var events: [Event] = []

        /// An empty record for `playlist`.
        package init(playlist: String) { self.playlist = playlist }

        /// One problem.
        package struct Event: Sendable, Codable, Hashable {
            /// The kind's stable name (`LowLatencyMonitor.Kind`'s raw value).
            package var kind: String
            /// Wall seconds from the start of the check when it was seen.
            package var at: Double
            /// The playlist (or part) URL it is about.
            package var url: String
            /// One sentence naming the playlist or part and what went wrong.
            package var message: String
        }

        /// A count per problem kind; the JSON keys are the kinds' stable names.
        package typealias Counts = ProblemCounts<LowLatencyMonitor.Kind>
    }
}
