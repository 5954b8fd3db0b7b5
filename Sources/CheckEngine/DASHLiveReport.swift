package import BufprobeOutput
/// `dash_live` in `check --json`: how a live (dynamic) DASH manifest and the player's requests behaved
/// (`DASHLiveAnalysis`). Times named `at` are seconds since the check began; dates are Unix seconds on the
/// stream's clock.
package struct DASHLiveReport: Sendable, Codable, Hashable {
    /// What went wrong, as the JSON names it.
    package enum Kind: String, Sendable, Codable, Hashable, CaseIterable {
        /// The player requested a segment before its availability start (its end on the clock less
        /// `availabilityTimeOffset`): the player's doing, a warning.
        case earlyRequest = "early_request"
        /// A segment inside the availability window answered an HTTP error: the origin's fault, degraded.
        case missingSegment = "missing_segment"
        /// The manifest went unreloaded for longer than `minimumUpdatePeriod` allows (one and a half times
        /// it, at least one second more): the player used an expired manifest, a warning.
        case reloadLate = "reload_late"
        /// The manifest was reloaded sooner than half its `minimumUpdatePeriod` after the read before (it
        /// cannot have changed yet): requests wasted, a warning. Listed once, counted each time.
        case reloadEarly = "reload_early"
        /// The manifest lists a window of segments longer or shorter than its `timeShiftBufferDepth` by
        /// more than a segment: a warning.
        case windowMismatch = "window_mismatch"
        /// No clock from `UTCTiming` (none usable, or it failed): times are read against this machine's.
        case clockUnavailable = "clock_unavailable"
    }

    /// A count per problem kind; the JSON keys are the kinds' stable names.
    package typealias Counts = ProblemCounts<Kind>

    /// One problem.
    package struct Event: Sendable, Codable, Hashable {
        /// A `Kind`'s raw value.
        package var kind: String
        /// Seconds since the check began.
        package var at: Double
        /// The segment or manifest it concerns.
        package var url: String
        /// The warning sentence.
        package var message: String
    }

    /// The manifest's URL.
    package var manifest: String
    /// `system`, or `utc_timing <scheme> <url or value>`.
    package var clock = "system"
    /// Seconds the stream's clock is ahead of this machine's (0 for `system`).
    package var clockOffset = 0.0
    /// `MPD@availabilityStartTime`, Unix seconds.
    @NullEncoded package var availabilityStartTime: Double?
    /// `MPD@minimumUpdatePeriod`, seconds.
    @NullEncoded package var minimumUpdatePeriod: Double?
    /// `MPD@timeShiftBufferDepth`, seconds.
    @NullEncoded package var timeShiftBufferDepth: Double?
    /// `MPD@suggestedPresentationDelay`, seconds.
    @NullEncoded package var suggestedPresentationDelay: Double?
    /// `ServiceDescription/Latency@target`, seconds.
    @NullEncoded package var targetLatency: Double?
    /// The played representation's `availabilityTimeOffset` (BaseURL plus template), seconds.
    @NullEncoded package var availabilityTimeOffset: Double?
    /// Seconds of segments the manifest listed when first read (a `SegmentTimeline`'s span); `null` for
    /// `@duration` addressing, whose window is the time-shift buffer by definition.
    @NullEncoded package var listedWindow: Double?
    /// Times the player reloaded the manifest after its first read.
    package var mpdReloads = 0
    /// Seconds between successive reads of the manifest (at most 100 kept).
    package var reloadIntervals: [Double] = []
    /// Segment requests the player sent (init sections not counted).
    package var segmentsRequested = 0
    /// The number of the first segment the player played (its first request that did not fail).
    @NullEncoded package var startSegment: Int64?
    /// Seconds the start of that segment was behind the live edge when it was requested: the hold-back the
    /// player applied.
    @NullEncoded package var startHoldBack: Double?
    /// Problems by kind.
    package var counts = Counts()
    /// The problems, oldest first (at most `maximumEvents`; the rest are counted only).
    package var events: [Event] = []
    /// Problems counted but not listed in `events`.
    package var eventsLeftOut = 0
    /// Requests the log could not keep (more than `RequestLog.maximumEntries`).
    package var requestsNotSeen = 0

    /// The most events listed.
    package static let maximumEvents = 100

    /// A report for the manifest at `manifest`.
    package init(manifest: String) { self.manifest = manifest }

    /// Counts a problem and lists it while there is room.
    package mutating func add(_ kind: Kind, at time: Double, url: String, message: String) {
        counts[kind] += 1
        if events.count < Self.maximumEvents {
            events.append(Event(kind: kind.rawValue, at: JSONOutput.seconds(time), url: url, message: message))
        } else {
            eventsLeftOut += 1
        }
    }
}
